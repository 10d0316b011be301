/*
 * console.c - the console on top of the machine's serial device.
 *
 * Output: polled, under a spinlock so that one kprintf() is never interleaved
 * with another.  The fault path calls console_panic_mode() first, which makes
 * output skip the lock (a CPU may have died holding it).
 *
 * Input: the receive interrupt calls console_rx() for each byte, which puts
 * it in a ring buffer (dropping bytes when full, and counting them) and wakes
 * the reader.  Ctrl-C (0x03) also raises the interrupt flag for the running
 * command and marks its place in the ring: console_input_flush_interrupt()
 * then drops what came before it, itself included, and keeps what was typed
 * after it (as a terminal's interrupt character flushes the input queue at
 * the moment it is typed, not later).  console_getc() sleeps on the ring.
 * While the shell runs a command it reads no input and the console is in
 * the place of a terminal in cooked mode: console_echo_interrupt(true) makes
 * each Ctrl-C echo as "^C" and a newline the moment it arrives (from the
 * receive interrupt, so the echo comes before whatever the interrupted
 * command prints on its way out: dtrace's aggregations).  At the prompt
 * the echo is off: the line editor prints its own "^C".
 *
 * Tests: tests/e2e/test_console_input.py, tests/e2e/test_editing.py,
 *        tests/e2e/test_garbage.py
 */
#include "arch/arch.h"
#include "kernel/boot.h"
#include "kernel/console.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/sdt.h"
#include "kernel/thread.h"
#include "kernel/time.h"

#define RX_RING_SIZE 4096
#define CTRL_C 0x03

static spinlock_t tx_lock = SPINLOCK_INIT("console tx");
static bool panic_mode;

static spinlock_t rx_lock = SPINLOCK_INIT("console rx");
static waitq_t rx_waiters = WAITQ_INIT;
static unsigned char rx_ring[RX_RING_SIZE];
static unsigned rx_head, rx_tail;        /* head: next write; tail: next read */
static unsigned rx_intr;                 /* just after the last Ctrl-C stored */
static unsigned long rx_dropped;
static volatile bool interrupted;
static volatile unsigned long interrupt_count;
static volatile bool echo_interrupt;     /* echo Ctrl-C as ^C (a command runs) */

void console_init(void)
{
	arch_console_init();
}

void console_init_irq(void)
{
	arch_console_irq_on();
}

void console_panic_mode(void)
{
	panic_mode = true;
}

static void console_emit(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			arch_console_putc('\r');
		arch_console_putc(s[i]);
	}
}

void console_write(const char *s, size_t n)
{
	if (panic_mode) {
		console_emit(s, n);
		return;
	}
	DTRACE_PROBE2(console__transmit, s, n);
	spin_lock(&tx_lock);
	console_emit(s, n);
	spin_unlock(&tx_lock);
}

void console_putc(char c)
{
	console_write(&c, 1);
}

void console_rx(int c)
{
	DTRACE_PROBE1(console__receive, c);
	spin_lock(&rx_lock);
	if (c == CTRL_C) {
		interrupted = true;
		if (rx_head - rx_tail == RX_RING_SIZE)
			rx_tail++;                  /* full: the Ctrl-C flushes all before it anyway */
		interrupt_count++;
	}
	if (rx_head - rx_tail < RX_RING_SIZE)
		rx_ring[rx_head++ % RX_RING_SIZE] = (unsigned char)c;
	else
		rx_dropped++;
	if (c == CTRL_C)
		rx_intr = rx_head;
	waitq_wake_all(&rx_waiters);
	spin_unlock(&rx_lock);
	if (c == CTRL_C && echo_interrupt)
		console_write("^C\n", 3);
}

void console_echo_interrupt(bool on)
{
	echo_interrupt = on;
}

int console_getc_timeout(unsigned long long timeout_ns)
{
	uint64_t deadline = ktime_ns() + timeout_ns;
	int c = -1;

	spin_lock(&rx_lock);
	while (rx_head == rx_tail) {
		uint64_t now = ktime_ns();
		if (now >= deadline || !waitq_sleep_timeout(&rx_waiters, &rx_lock, deadline - now))
			break;
	}
	if (rx_head != rx_tail)
		c = rx_ring[rx_tail++ % RX_RING_SIZE];
	spin_unlock(&rx_lock);
	return c;
}

/* rx_take: the next received byte, sleeping for it; -1 if killable and the thread is killed. */
static int rx_take(bool killable)
{
	int c = -1;

	spin_lock(&rx_lock);
	while (rx_head == rx_tail && !(killable && thread_should_exit()))
		waitq_sleep(&rx_waiters, &rx_lock);
	if (rx_head != rx_tail)
		c = rx_ring[rx_tail++ % RX_RING_SIZE];
	spin_unlock(&rx_lock);
	return c;
}

int console_getc(void)
{
	return rx_take(false);
}

int console_getc_killable(void)
{
	return rx_take(true);
}

void console_input_flush_interrupt(void)
{
	spin_lock(&rx_lock);
	if (rx_intr - rx_tail <= rx_head - rx_tail)
		rx_tail = rx_intr;                  /* the last Ctrl-C is still unread: drop up to it */
	spin_unlock(&rx_lock);
}

bool console_interrupted(void)
{
	return interrupted;
}

unsigned long console_interrupt_count(void)
{
	return interrupt_count;
}

void console_clear_interrupt(void)
{
	interrupted = false;
}

/*
 * The error stream: the console itself, unless the command line says
 * stderr=com2, in which case it is the second UART, written byte for byte
 * (no CR before LF: the reader is a program, tools/dtrace).
 */
static spinlock_t err_lock = SPINLOCK_INIT("console err");
static bool err_com2;

void console_err_init(void)
{
	char dev[16];

	if (!cmdline_get(boot_info.bi_cmdline, "stderr", dev, sizeof(dev)))
		return;
	if (strcmp(dev, "com2") == 0) {
		arch_console_err_init();
		err_com2 = true;
	} else {
		kprintf("console: stderr=%s: unknown device (com2 is the one there is)\n", dev);
	}
}

void console_err_write(const char *s, size_t n)
{
	if (!err_com2) {
		console_write(s, n);
		return;
	}
	if (!panic_mode)
		spin_lock(&err_lock);
	for (size_t i = 0; i < n; i++)
		arch_console_err_putc(s[i]);
	if (!panic_mode)
		spin_unlock(&err_lock);
}

int kprintf_err(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_err_write(buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	return n;
}

int kvprintf(const char *fmt, va_list ap)
{
	char buf[1024];
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);

	kstdout_write(buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);   /* the console, or the shell's redirection */
	return n;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvprintf(fmt, ap);
	va_end(ap);
	return n;
}
