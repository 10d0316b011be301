/*
 * uart.c - the 16550 UART on COM1: the serial console.
 *
 * Transmit is polled (wait for the holding register to empty, write the
 * byte), so printing works from any context, even with interrupts off.
 * Receive is interrupt driven: the IOAPIC routes IRQ 4 to VEC_UART and the
 * handler drains the FIFO into console_rx().
 *
 * COM2 carries the error stream when the kernel is booted with stderr=com2
 * (tools/dtrace): transmit only, polled, no interrupts.
 *
 * COM4 (0x2e8, IRQ 3) is the link to another machine (kernel/link.c), when
 * there is one (tools/dtrace-pair gives each guest a fourth serial port, the
 * end of a socket): found by its scratch register, transmit polled, receive
 * by interrupt into link_input().  IRQ 3 is free because COM2 never
 * enables its interrupts.  COM2 itself cannot be the link: it is stderr.
 * Tests: tests/e2e/test_console_input.py, tests/e2e/test_editing.py
 */
#include "arch/arch.h"
#include "kernel/devinfo.h"
#include "arch/x86_64/x86.h"

#define COM1        0x3f8
#define COM2        0x2f8
#define COM4        0x2e8        /* the link */
#define IRQ_COM4    3
#define UART_DATA   0
#define UART_IER    1
#define UART_FCR    2
#define UART_LCR    3
#define UART_MCR    4
#define UART_LSR    5
#define UART_SCR    7
#define LSR_DATA    0x01
#define LSR_THRE    0x20

static void uart_init(uint16_t port)
{
	outb(port + UART_IER, 0x00);            /* no interrupts yet */
	outb(port + UART_LCR, 0x80);            /* divisor latch */
	outb(port + 0, 0x01);                   /* 115200 baud */
	outb(port + 1, 0x00);
	outb(port + UART_LCR, 0x03);            /* 8N1 */
	outb(port + UART_FCR, 0xc7);            /* FIFO on, cleared, 14-byte trigger */
	outb(port + UART_MCR, 0x0b);            /* DTR, RTS, OUT2 (IRQ line) */
}

static void uart_putc(uint16_t port, char c)
{
	for (int spins = 0; spins < 100000 && !(inb(port + UART_LSR) & LSR_THRE); spins++)
		__asm__ volatile("pause");
	outb(port + UART_DATA, (uint8_t)c);
}

void arch_console_init(void)
{
	uart_init(COM1);
}

void arch_console_putc(char c)
{
	uart_putc(COM1, c);
}

void arch_console_err_init(void)
{
	uart_init(COM2);
}

void arch_console_err_putc(char c)
{
	uart_putc(COM2, c);
}

struct dev_info uart_console_dev, uart_link_dev;

void arch_console_irq_on(void)
{
	dev_attach(&uart_console_dev, "serial", "uart");
	ioapic_route(4, VEC_UART);
	outb(COM1 + UART_IER, 0x01);            /* received data available */
}

void uart_interrupt(void *arg)
{
	(void)arg;
	while (inb(COM1 + UART_LSR) & LSR_DATA)
		console_rx(inb(COM1 + UART_DATA));
}

/* uart_present: a 16550 answers at port (its scratch register keeps what is written). */
static bool uart_present(uint16_t port)
{
	outb(port + UART_SCR, 0x5a);
	if (inb(port + UART_SCR) != 0x5a)
		return false;
	outb(port + UART_SCR, 0xa5);
	return inb(port + UART_SCR) == 0xa5;
}

bool arch_link_init(void)
{
	if (!uart_present(COM4))
		return false;
	uart_init(COM4);
	return true;
}

void arch_link_putc(uint8_t c)
{
	uart_putc(COM4, (char)c);
}

void arch_link_irq_on(void)
{
	dev_attach(&uart_link_dev, "serial", "uart");
	ioapic_route(IRQ_COM4, VEC_LINK);
	outb(COM4 + UART_IER, 0x01);            /* received data available */
}

void uart_link_interrupt(void *arg)
{
	(void)arg;
	while (inb(COM4 + UART_LSR) & LSR_DATA)
		link_input(inb(COM4 + UART_DATA));
}
