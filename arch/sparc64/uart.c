/*
 * uart.c - sparc64: the console, the 16550 UART of QEMU's sun4u.
 *
 * Its registers sit at physical SUN4U_UART, reached through the MMU-bypass
 * ASI (no mapping needed, uncached).  Output is polled.  Input is polled
 * too, from the timer interrupt (timer.c calls sparc64_uart_poll), which
 * hands each received byte to console_rx(): simpler than routing the ISA
 * interrupt through the PCI bridge, at the cost of up to one tick of delay.
 * There is one serial port: the error stream goes to the console.
 */
#include "arch/arch.h"
#include "arch/sparc64/sparc64.h"

#define UART_THR 0
#define UART_RBR 0
#define UART_IER 1
#define UART_LSR 5
#define LSR_DR   0x01
#define LSR_THRE 0x20

static bool rx_on;

void arch_console_init(void)
{
	phys_out8(SUN4U_UART + UART_IER, 0);
}

void arch_console_putc(char c)
{
	if (c == '\n')
		arch_console_putc('\r');
	while (!(phys_in8(SUN4U_UART + UART_LSR) & LSR_THRE))
		;
	phys_out8(SUN4U_UART + UART_THR, (uint8_t)c);
}

void arch_console_irq_on(void) { rx_on = true; }
void arch_console_err_init(void) {}
void arch_console_err_putc(char c) { arch_console_putc(c); }

/* sparc64_uart_poll: every received byte to console_rx().  Interrupt context. */
void sparc64_uart_poll(void)
{
	while (rx_on && (phys_in8(SUN4U_UART + UART_LSR) & LSR_DR))
		console_rx(phys_in8(SUN4U_UART + UART_RBR));
}
