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

/*
 * Parking (xcall_park): while the work runs, no other CPU moves (each of
 * them counts as fast as it can, bound to its CPU, and the counts do not
 * change across the work); each runs resume once.  A CPU spinning with
 * interrupts off past the timeout makes the parking give up without
 * running the work, and the next one succeeds.
 *
 * The guest's CPUs are host threads: on a busy host one may not run for
 * tens of milliseconds, so what must succeed is given seconds (the kernel's
 * own parkings give up at 50 ms and take the ordered way instead), and what
 * must fail is a parking of 5 ms against a CPU deaf to it for 300 ms.
 */
#define PARK_PATIENCE (2 * NSEC_PER_SEC)
#define PARK_DEAF     (300 * NSEC_PER_MSEC)

static volatile uint64_t park_counts[MAX_CPUS];
static volatile int park_resumed[MAX_CPUS];
static volatile bool park_stop, park_irqs_off;
static volatile int park_started;
static bool park_still;

static void park_counter(void *arg)
{
	int cpu = (int)(uintptr_t)arg;

	thread_bind(cpu);
	__atomic_add_fetch(&park_started, 1, __ATOMIC_RELEASE);
	while (!park_stop) {
		if (park_irqs_off) {                 /* deaf to the parking for a while */
			uint64_t flags = arch_irq_save(), end = ktime_ns() + PARK_DEAF;
			park_irqs_off = false;
			while (ktime_ns() < end)
				park_counts[cpu]++;
			arch_irq_restore(flags);
		}
		park_counts[cpu]++;
	}
}

static void park_work(void *arg)
{
	uint64_t before[MAX_CPUS], end = ktime_ns() + 2 * NSEC_PER_MSEC;

	(void)arg;
	for (int i = 0; i < ncpus; i++)
		before[i] = park_counts[i];
	while (ktime_ns() < end)
		arch_cpu_relax();
	park_still = true;
	for (int i = 0; i < ncpus; i++)
		park_still = park_still && before[i] == park_counts[i];
}

static void park_resume_count(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&park_resumed[arch_cpu_id()], 1, __ATOMIC_RELAXED);
}

SELFTEST(smp_xcall_park)
{
	uint64_t t[MAX_CPUS];
	int me = arch_cpu_id(), n = 0;

	thread_bind(me);
	park_stop = false;
	park_started = 0;
	for (int i = 0; i < ncpus; i++) {
		park_counts[i] = 0;
		park_resumed[i] = 0;
		if (i != me)
			t[n++] = thread_spawn("st-park", park_counter, (void *)(uintptr_t)i);
	}
	while (park_started < n)
		thread_sleep_ns(NSEC_PER_MSEC);
	park_still = false;
	ST_ASSERT(xcall_park(park_work, park_resume_count, NULL, PARK_PATIENCE));
	ST_ASSERT(park_still);
	uint64_t end = ktime_ns() + PARK_PATIENCE;        /* they resume once let go */
	for (int i = 0; i < ncpus; i++) {
		while (i != me && park_resumed[i] == 0 && ktime_ns() < end)
			arch_cpu_relax();
		ST_ASSERT(park_resumed[i] == (i == me ? 0 : 1));
	}
	if (n > 0) {
		park_irqs_off = true;
		while (park_irqs_off)
			arch_cpu_relax();
		park_still = false;
		ST_ASSERT(!xcall_park(park_work, NULL, NULL, 5 * NSEC_PER_MSEC));
		ST_ASSERT(!park_still);              /* the work did not run */
		ST_ASSERT(xcall_park(park_work, NULL, NULL, PARK_PATIENCE));   /* outwaits the deaf one */
		ST_ASSERT(park_still);
	}
	park_stop = true;
	for (int i = 0; i < n; i++)
		if (t[i] != 0)
			thread_join(t[i]);
	thread_bind(-1);
}
