/*
 * console.h - the serial console as the shell sees it.
 *
 * Output goes straight to the UART (polled).  Input arrives by interrupt into
 * a ring buffer; console_getc() sleeps until a byte is there.  Ctrl-C (0x03)
 * is also delivered as a byte, and additionally raises the console's
 * interrupt flag so that a long-running command can notice it.
 */
#ifndef SONDE_CONSOLE_H
#define SONDE_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

void console_init(void);                          /* boot: UART up, polled output */
void console_init_irq(void);                      /* boot: receive interrupts on */
void console_panic_mode(void);                    /* fault path: print even if a CPU holds the lock */
void console_putc(char c);                        /* any context */
void console_write(const char *s, size_t n);      /* any context */

/*
 * The error stream (a program's standard error).  At the prompt it is the
 * console itself; booted with "stderr=com2" (tools/dtrace) it goes to the
 * second serial port so the host can keep the two apart.
 */
void console_err_init(void);                      /* boot, after the command line is known */
void console_err_write(const char *s, size_t n);
int kprintf_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * console_getc: the next received byte; sleeps until one arrives.
 * Thread context only.
 */
int console_getc(void);
/* console_getc_killable: the same, but -1 once the calling thread is killed (a process's read). */
int console_getc_killable(void);

/* console_getc_timeout: as console_getc, or -1 after timeout_ns. */
int console_getc_timeout(unsigned long long timeout_ns);

/* Ctrl-C: set by the receive interrupt, cleared by whoever handles it. */
bool console_interrupted(void);
void console_clear_interrupt(void);
/*
 * console_input_flush_interrupt: drop the unread input up to and including
 * the last Ctrl-C received; what was typed after it stays.  Thread context.
 */
void console_input_flush_interrupt(void);
/*
 * console_echo_interrupt: while on, every Ctrl-C received is echoed at
 * once as "^C" and a newline, as a terminal in cooked mode echoes its
 * interrupt character; the shell turns it on while a command line runs.
 * Thread context.
 */
void console_echo_interrupt(bool on);
/* console_interrupt_count: Ctrl-Cs received since boot (a second one means "stop now").  Any context. */
unsigned long console_interrupt_count(void);

/*
 * Standard output of the current thread (kernel/kstdio.c): what the
 * shell's in-kernel commands print.  kprintf and kstdout_write go to the
 * console unless the thread was given a file with kstdio_set (a pipe, a
 * /tmp file); only in thread context with interrupts on.
 *   kstdio_set          give the current thread out as its standard output
 *                       (NULL: the console again); returns the one before
 *                       (the caller keeps its reference either way)
 *   kstdio_get          the current thread's file, or NULL (the console); no new reference
 *   kstdout_write       write n bytes to it
 *   kstdout_broken      did a write to it fail (EPIPE: the reader went away)?
 *   kstdout_error       that write's errno, or 0
 *   kstdout_redirected  does the current thread have a file as its output?
 * Thread context.
 */
struct file;
struct file *kstdio_set(struct file *out);
struct file *kstdio_get(void);
void kstdout_write(const char *s, size_t n);
bool kstdout_broken(void);
int kstdout_error(void);
bool kstdout_redirected(void);

#endif
