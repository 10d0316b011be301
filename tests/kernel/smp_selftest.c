/*
 * smp_selftest.c - in-kernel self-tests of cross-calls and the scheduler on
 * several CPUs (they pass, trivially, on one): a cross-call reaches every
 * CPU once and is counted, and threads spread over the CPUs.
 */
#include "arch/arch.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "kernel/xcall.h"

static volatile int hits[MAX_CPUS];

static void hit_here(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&hits[arch_cpu_id()], 1, __ATOMIC_RELAXED);
}

SELFTEST(smp_xcall_reaches_every_cpu)
{
	uint64_t flags = arch_irq_save();          /* count this CPU's cross-calls */
	struct cpu *self = curcpu();
	uint64_t before = self->cpu_stats.sysinfo.xcalls;

	for (int i = 0; i < MAX_CPUS; i++)
		hits[i] = 0;
	xcall_all(hit_here, NULL);
	ST_ASSERT(self->cpu_stats.sysinfo.xcalls - before == (uint64_t)ncpus - 1);
	arch_irq_restore(flags);
	for (int i = 0; i < ncpus; i++)
		ST_ASSERT(hits[i] == 1);
	for (int i = ncpus; i < MAX_CPUS; i++)
		ST_ASSERT(hits[i] == 0);
}

static volatile uint64_t seen_cpus;

static void spinner(void *arg)
{
	uint64_t end = ktime_ns() + 30 * NSEC_PER_MSEC;

	(void)arg;
	while (ktime_ns() < end)
		__atomic_or_fetch(&seen_cpus, 1UL << arch_cpu_id(), __ATOMIC_RELAXED);
}

SELFTEST(smp_threads_spread)
{
	uint64_t t[MAX_CPUS];
	int n = ncpus;

	seen_cpus = 0;
	for (int i = 0; i < n; i++)
		t[i] = thread_spawn("st-spread", spinner, NULL);
	for (int i = 0; i < n; i++)
		if (t[i] != 0)
			thread_join(t[i]);
	int used = __builtin_popcountll(seen_cpus);
	ST_ASSERT(used >= (n > 1 ? 2 : 1));         /* busy threads do not all share one CPU */
}
