/*
 * uart.c - sparc64: the console, the 16550 UART of QEMU's sun4u.
 *
 * Its registers sit at physical SUN4U_UART, reached through the MMU-bypass
 * ASI (no mapping needed, uncached).  Output is polled.  Input is polled
 * too, from the timer interrupt (timer.c calls sparc64_uart_poll), which
 * hands each received byte to console_rx(): simpler than routing the ISA
 * interrupt through the PCI bridge, at the cost of up to one tick of delay.
 * The second UART (COM2's port) carries the error stream when the command
 * line asks for it (stderr=com2), as on x86_64.
 *
 * Tests: make sparc64-check (its TAP output), tools/sparc64_run.sh
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
	while (!(phys_in8(SUN4U_UART + UART_LSR) & LSR_THRE))
		;
	phys_out8(SUN4U_UART + UART_THR, (uint8_t)c);
}

void arch_console_irq_on(void) { rx_on = true; }
/* The error stream (console.h: stderr=com2): the second 16550, COM2's port 0x2f8. */
void arch_console_err_init(void)
{
	phys_out8(SUN4U_UART2 + UART_IER, 0);
}

void arch_console_err_putc(char c)
{
	while (!(phys_in8(SUN4U_UART2 + UART_LSR) & LSR_THRE))
		;
	phys_out8(SUN4U_UART2 + UART_THR, (uint8_t)c);
}

/* sparc64_uart_poll: every received byte to console_rx().  Interrupt context. */
void sparc64_uart_poll(void)
{
	while (rx_on && (phys_in8(SUN4U_UART + UART_LSR) & LSR_DR))
		console_rx(phys_in8(SUN4U_UART + UART_RBR));
}

/* The link to another machine (kernel/link.c): none on sparc64 yet. */
bool arch_link_init(void)
{
	return false;
}

void arch_link_putc(uint8_t c)
{
	(void)c;
}

void arch_link_irq_on(void)
{
}
