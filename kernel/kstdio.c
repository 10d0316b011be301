/*
 * kstdio.c - standard output for the shell's in-kernel commands.
 *
 * Theory.  Shell commands (dtrace, ps, help, ...) run in the kernel, on
 * the shell's thread, and print with kprintf or kstdout_write.  To put
 * them in a pipeline or redirect them to a file, the shell gives its
 * thread a standard output file (a pipe's write end, a /tmp file) with
 * kstdio_set; until it takes it away again, everything that thread prints
 * in thread context goes to that file instead of the console.  Errors
 * (kprintf_err) stay on the error stream, as a Unix shell's 2> is not
 * given.  A write that fails with EPIPE (the reader has gone: `dtrace -l
 * | /bin/head`) marks the stream broken: later output is dropped and
 * kstdout_broken() is true, which the shell's shell_interrupted() reports
 * so a long command (dtrace) stops as if interrupted, quietly.
 *
 * What not: interrupt and probe context never write to the file (they
 * cannot sleep on a pipe): with interrupts off, output goes to the
 * console as before; a write from inside a write (a lock's debug message)
 * also goes to the console.  kprintf is on the fault path of probe
 * context, so kstdout_write and what it calls directly are out of fbt's
 * reach (NOTRACE; tools/fbt_check_notrace.py checks).
 *
 * The state is the thread's own (struct thread's t_stdio): any number of
 * threads may have their output redirected at once (the shell thread, the
 * boot thread running cmd=, a dtrace consumer's -o file or the buffer it
 * formats a system() line into), and only the thread itself touches it,
 * so no lock is needed and finding it is one load.
 *
 * Tests: tests/e2e/test_shell_pipes.py (kernel commands in pipes)
 */
#include "arch/arch.h"
#include "kernel/console.h"
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/proc.h"
#include "kernel/thread.h"

/* kstdio_mine: the current thread's standard output state, or NULL (no thread yet). */
NOTRACE static struct thread_stdio *kstdio_mine(void)
{
	struct thread *t = curthread();

	return t != NULL ? &t->t_stdio : NULL;
}

struct file *kstdio_set(struct file *out)
{
	struct thread_stdio *s = kstdio_mine();
	struct file *old = s != NULL ? s->ts_out : NULL;

	if (s == NULL)
		return NULL;
	s->ts_out = out;
	s->ts_broken = false;
	s->ts_err = 0;
	return old;
}

struct file *kstdio_get(void)
{
	struct thread_stdio *s = kstdio_mine();

	return s != NULL ? s->ts_out : NULL;
}

bool kstdout_broken(void)
{
	struct thread_stdio *s = kstdio_mine();

	return s != NULL && s->ts_out != NULL && s->ts_broken;
}

int kstdout_error(void)
{
	struct thread_stdio *s = kstdio_mine();

	return s != NULL && s->ts_out != NULL && s->ts_broken ? s->ts_err : 0;
}

bool kstdout_redirected(void)
{
	return kstdio_get() != NULL;
}

NOTRACE void kstdout_write(const char *buf, size_t n)
{
	struct thread_stdio *s = arch_irq_enabled() ? kstdio_mine() : NULL;

	if (s == NULL || s->ts_busy || s->ts_out == NULL) {
		console_write(buf, n);
		return;
	}
	if (s->ts_broken)
		return;
	s->ts_busy = true;
	while (n > 0) {
		int64_t r = s->ts_out->f_ops->fo_write != NULL ?
		            s->ts_out->f_ops->fo_write(s->ts_out, buf, n) : -EBADF;
		if (r <= 0) {
			s->ts_broken = true;          /* EPIPE, ENOSPC, EINTR: the rest is lost */
			s->ts_err = r < 0 ? (int)-r : ENOSPC;
			break;
		}
		buf += r;
		n -= (size_t)r;
	}
	s->ts_busy = false;
}
