/*
 * uart.c - the 16550 UART on COM1: the serial console.
 *
 * Transmit is polled (wait for the holding register to empty, write the
 * byte), so printing works from any context, even with interrupts off.
 * Receive is interrupt driven: the IOAPIC routes IRQ 4 to VEC_UART and the
 * handler drains the FIFO into console_rx().
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"

#define COM1        0x3f8
#define UART_DATA   0
#define UART_IER    1
#define UART_FCR    2
#define UART_LCR    3
#define UART_MCR    4
#define UART_LSR    5
#define LSR_DATA    0x01
#define LSR_THRE    0x20

void arch_console_init(void)
{
	outb(COM1 + UART_IER, 0x00);            /* no interrupts yet */
	outb(COM1 + UART_LCR, 0x80);            /* divisor latch */
	outb(COM1 + 0, 0x01);                   /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + UART_LCR, 0x03);            /* 8N1 */
	outb(COM1 + UART_FCR, 0xc7);            /* FIFO on, cleared, 14-byte trigger */
	outb(COM1 + UART_MCR, 0x0b);            /* DTR, RTS, OUT2 (IRQ line) */
}

void arch_console_putc(char c)
{
	for (int spins = 0; spins < 100000 && !(inb(COM1 + UART_LSR) & LSR_THRE); spins++)
		__asm__ volatile("pause");
	outb(COM1 + UART_DATA, (uint8_t)c);
}

void arch_console_irq_on(void)
{
	ioapic_route(4, VEC_UART);
	outb(COM1 + UART_IER, 0x01);            /* received data available */
}

void uart_interrupt(void)
{
	while (inb(COM1 + UART_LSR) & LSR_DATA)
		console_rx(inb(COM1 + UART_DATA));
}
