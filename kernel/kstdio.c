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
 * A few slots, one per thread that has a redirection at once (the shell
 * thread, the boot thread running cmd=, a dtrace consumer's -o file or the
 * buffer it formats a system() line into); a slot belongs to its thread, so
 * no lock is needed to use it, only to claim one.
 *
 * Tests: tests/e2e/test_shell_pipes.py (kernel commands in pipes)
 */
#include "arch/arch.h"
#include "kernel/console.h"
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/proc.h"
#include "kernel/thread.h"

#define KSTDIO_SLOTS 16

struct kstdio_slot {
	struct thread *ks_thread;    /* the owner, or NULL: free */
	struct file *ks_out;
	bool ks_broken;              /* a write failed: EPIPE, or ks_err */
	int ks_err;                  /* the errno of that write (positive) */
	bool ks_busy;                /* inside a write: nested output goes to the console */
};

static struct kstdio_slot slots[KSTDIO_SLOTS];
static spinlock_t slots_lock = SPINLOCK_INIT("kstdio");

/* kstdio_mine: the current thread's slot, or NULL.  Reads only the owner field, which only its owner sets. */
NOTRACE static struct kstdio_slot *kstdio_mine(void)
{
	struct thread *t = curthread();

	for (int i = 0; i < KSTDIO_SLOTS; i++)
		if (slots[i].ks_thread == t)
			return &slots[i];
	return NULL;
}

struct file *kstdio_set(struct file *out)
{
	struct kstdio_slot *s = kstdio_mine();
	struct file *old = s != NULL ? s->ks_out : NULL;

	if (s == NULL && out != NULL) {
		spin_lock(&slots_lock);
		for (int i = 0; i < KSTDIO_SLOTS && s == NULL; i++)
			if (slots[i].ks_thread == NULL)
				s = &slots[i];
		if (s != NULL)
			*s = (struct kstdio_slot){ .ks_thread = curthread() };
		spin_unlock(&slots_lock);
		if (s == NULL)
			return NULL;              /* all taken: output stays on the console */
	}
	if (s == NULL)
		return NULL;
	s->ks_out = out;
	s->ks_broken = false;
	s->ks_err = 0;
	if (out == NULL)
		__atomic_store_n(&s->ks_thread, NULL, __ATOMIC_RELEASE);
	return old;
}

struct file *kstdio_get(void)
{
	struct kstdio_slot *s = kstdio_mine();

	return s != NULL ? s->ks_out : NULL;
}

bool kstdout_broken(void)
{
	struct kstdio_slot *s = kstdio_mine();

	return s != NULL && s->ks_broken;
}

int kstdout_error(void)
{
	struct kstdio_slot *s = kstdio_mine();

	return s != NULL && s->ks_broken ? s->ks_err : 0;
}

bool kstdout_redirected(void)
{
	return kstdio_mine() != NULL;
}

NOTRACE void kstdout_write(const char *buf, size_t n)
{
	struct kstdio_slot *s = arch_irq_enabled() ? kstdio_mine() : NULL;

	if (s == NULL || s->ks_busy || s->ks_out == NULL) {
		console_write(buf, n);
		return;
	}
	if (s->ks_broken)
		return;
	s->ks_busy = true;
	while (n > 0) {
		int64_t r = s->ks_out->f_ops->fo_write != NULL ?
		            s->ks_out->f_ops->fo_write(s->ks_out, buf, n) : -EBADF;
		if (r <= 0) {
			s->ks_broken = true;          /* EPIPE, ENOSPC, EINTR: the rest is lost */
			s->ks_err = r < 0 ? (int)-r : ENOSPC;
			break;
		}
		buf += r;
		n -= (size_t)r;
	}
	s->ks_busy = false;
}
