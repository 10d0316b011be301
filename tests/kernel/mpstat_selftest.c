/*
 * mpstat_selftest.c - in-kernel self-tests of mpstat's counters
 * (kernel/cpu_stat.c): every CPU's scheduler ticks are charged to a state
 * while this thread sleeps, and charged to idle on a CPU with nothing to
 * run; a thread that yields to another runnable one counts an involuntary
 * switch; the mpstat command prints a table per CPU and refuses bad
 * arguments.
 */
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "console/shell/shell.h"

static uint64_t ticks_of(int cpu)
{
	const struct cpu *c = &cpus[cpu];

	return c->cpu_stats.sysinfo.cpu_ticks_user + c->cpu_stats.sysinfo.cpu_ticks_kernel +
	       c->cpu_stats.sysinfo.cpu_ticks_idle;
}

SELFTEST(cpu_stat_ticks_on_every_cpu)
{
	uint64_t before[MAX_CPUS];

	for (int i = 0; i < ncpus; i++)
		before[i] = ticks_of(i);
	thread_sleep_ns(5 * SCHED_QUANTUM_NS);
	for (int i = 0; i < ncpus; i++)
		ST_ASSERT(ticks_of(i) > before[i]);
}

static volatile bool yielder_stop, yielder_here;

/* yielder: share CPU 0 with the test, yielding to it, until told to stop. */
static void yielder(void *arg)
{
	(void)arg;
	thread_bind(0);
	yielder_here = true;
	while (!yielder_stop)
		thread_yield();
}

static uint64_t icsw_all(void)
{
	uint64_t n = 0;

	for (int i = 0; i < ncpus; i++)
		n += cpus[i].cpu_stats.sysinfo.inv_swtch;
	return n;
}

SELFTEST(cpu_stat_yield_counts_involuntary)
{
	int bound = curthread()->t_bound;          /* put back after: later tests may need it */

	yielder_stop = yielder_here = false;
	thread_bind(0);
	uint64_t tid = thread_spawn("st-yielder", yielder, NULL);
	ST_ASSERT(tid != 0);
	while (!yielder_here)
		thread_yield();
	uint64_t before = icsw_all();
	for (int i = 0; i < 100; i++)
		thread_yield();                     /* still runnable: each switch is involuntary */
	uint64_t after = icsw_all();
	yielder_stop = true;
	thread_bind(bound);
	ST_ASSERT(thread_join(tid) == 0);
	ST_ASSERT(after > before);
}

SELFTEST(cpu_stat_mpstat_command)
{
	ST_ASSERT(shell_run_line("mpstat") == SHELL_OK);
	ST_ASSERT(shell_run_line("mpstat 1 1") == SHELL_OK);
	ST_ASSERT(shell_run_line("mpstat 0") == SHELL_USAGE);
	ST_ASSERT(shell_run_line("mpstat 1 0") == SHELL_USAGE);
	ST_ASSERT(shell_run_line("mpstat x") == SHELL_USAGE);
	ST_ASSERT(shell_run_line("mpstat 1 2 3") == SHELL_USAGE);
}
