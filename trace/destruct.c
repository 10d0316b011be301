/*
 * destruct.c - the destructive actions (those that need -w), and their bounds.
 *
 * A destructive action is allowed only if the consumer asked for it: as in
 * DTrace the compiler accepts it, and dtrace_enable refuses a program that
 * uses one in a state opened without dov_destructive whatever the program
 * says of itself (dtrace_action_destructive, used by enable.c; the consumer
 * prints "could not enable tracing: Destructive actions not allowed").
 * What each one does when it runs, as the Dynamic Tracing Guide documents
 * it, and what Sonde does where it has nothing to act on:
 *
 *   chill(ns)    spin ns nanoseconds with interrupts off.  Bounded per CPU:
 *                at most DTRACE_CHILL_MAX of chill in each DTRACE_CHILL_INTERVAL,
 *                counted over every call and every consumer on that CPU; a
 *                call that would go beyond it does not spin and fails with
 *                an illegal operation (DIF_FAULT_ILLOP: the ERROR probe).
 *   panic()      stops the kernel with "panic: dtrace: panic action at probe
 *                P (ecb A)" and a failure status; the first CPU to get here
 *                panics, any other returns (the kernel is stopping).
 *   breakpoint() would enter the kernel debugger; Sonde has none, so the
 *                kernel stops as for panic(), after DTrace's console line
 *                "dtrace: breakpoint action at probe P (ecb A)".
 *   raise(sig)   signals the current process (proc_raise_self): sig is
 *                taken at its next return to user mode (every signal kills:
 *                Sonde has no handlers); a signal number beyond the last
 *                (DTRACE_NSIG) is an illegal operation.  In a kernel thread,
 *                which takes no signals, a valid raise() does nothing (as
 *                DTrace's on a kernel thread).
 *   stop()       stops the current process at its next return to user mode
 *                (proc_stop_self), until SIGCONT (`kill -CONT PID`) or a
 *                signal that kills it; `ps` shows it T.  Nothing for a
 *                kernel thread.
 *   system(fmt)  runs nowhere in probe context: the record is formatted like
 *                printf's and the consumer runs it as a shell command line.
 *   freopen(fmt) likewise: the consumer sends its output to the file the
 *                record names (console/dtrace/dtc_print.c).
 *   copyout(), copyoutstr()  DIF subroutines (dif/dif_subr.c): need
 *                DIF_VF_DESTRUCTIVE at validation and DIF_RUN_DESTRUCTIVE
 *                at run time, and fault (no user address space yet).
 *
 * Context: probe context (interrupts off, this CPU), except
 * dtrace_action_destructive (any context, pure).
 *
 * Tests: self-tests destruct_* (tests/kernel/destruct_selftest.c);
 *        tests/d/destructive; tests/e2e/test_proc.py (raise, stop)
 */
#include "arch/arch.h"
#include "kernel/console.h"
#include "kernel/klib.h"
#include "kernel/proc.h"
#include "trace/trace_impl.h"

/* One CPU's chill account: chill spent since the interval began at mark. */
struct chill_account {
	uint64_t ca_mark;                 /* ktime at the start of the interval */
	uint64_t ca_chilled;              /* ns chilled in it */
};

static struct chill_account chill_acct[MAX_CPUS];
static int panicking;                     /* set once, by the CPU that panics */

bool dtrace_action_destructive(int kind)
{
	switch (kind) {
	case DT_ACT_PANIC: case DT_ACT_BREAKPOINT: case DT_ACT_CHILL: case DT_ACT_RAISE:
	case DT_ACT_STOP: case DT_ACT_SYSTEM: case DT_ACT_FREOPEN:
		return true;
	default:
		return false;
	}
}

/* chill_allowed: may this CPU chill ns more now?  Charges it if so. */
static bool chill_allowed(struct chill_account *ca, uint64_t now, uint64_t ns)
{
	if (now - ca->ca_mark > DTRACE_CHILL_INTERVAL) {
		ca->ca_mark = now;                /* a new interval */
		ca->ca_chilled = 0;
	}
	if (ns > DTRACE_CHILL_MAX || ca->ca_chilled + ns > DTRACE_CHILL_MAX)
		return false;                     /* (the first test also keeps the sum from wrapping) */
	ca->ca_chilled += ns;
	return true;
}

int dtrace_chill(int cpu, uint64_t ns)
{
	uint64_t now = ktime_ns();

	if (!chill_allowed(&chill_acct[cpu], now, ns))
		return DIF_FAULT_ILLOP;
	while (ktime_ns() - now < ns)
		arch_cpu_relax();
	return 0;
}

/* probe_name: "prov:mod:func:name" of the firing probe, into buf. */
static void probe_name(const dtrace_ecb_t *ecb, char *buf, size_t size)
{
	dtrace_probedesc_t d;

	dtrace_probe_desc(ecb->dte_probe, &d);
	ksnprintf(buf, size, "%s:%s:%s:%s", d.dpd_provider, d.dpd_mod, d.dpd_func, d.dpd_name);
}

/* panic_claim: true for the first CPU only. */
static bool panic_claim(void)
{
	int expected = 0;

	return __atomic_compare_exchange_n(&panicking, &expected, 1, false, __ATOMIC_SEQ_CST,
	                                   __ATOMIC_SEQ_CST);
}

void dtrace_action_panic(const dtrace_ecb_t *ecb)
{
	char name[DTRACE_PROVNAMELEN + DTRACE_MODNAMELEN + DTRACE_FUNCNAMELEN + DTRACE_NAMELEN];

	if (!panic_claim())
		return;
	probe_name(ecb, name, sizeof(name));
	panic("dtrace: panic action at probe %s (ecb %p)", name, (const void *)ecb);
}

void dtrace_action_breakpoint(const dtrace_ecb_t *ecb)
{
	char name[DTRACE_PROVNAMELEN + DTRACE_MODNAMELEN + DTRACE_FUNCNAMELEN + DTRACE_NAMELEN];

	if (!panic_claim())
		return;
	probe_name(ecb, name, sizeof(name));
	console_panic_mode();                     /* probe context: never wait for the console lock */
	kprintf("\ndtrace: breakpoint action at probe %s (ecb %p)\n", name, (const void *)ecb);
	panic("dtrace: breakpoint action: no kernel debugger to enter");
}

int dtrace_action_raise(uint64_t sig)
{
	if (sig >= DTRACE_NSIG)
		return DIF_FAULT_ILLOP;
	if (sig != 0)
		proc_raise_self((int)sig);           /* (false: a kernel thread takes no signals) */
	return 0;
}

void dtrace_action_stop(void)
{
	proc_stop_self();                        /* (false: a kernel thread has nothing to stop) */
}
