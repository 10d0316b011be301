/*
 * xcall.c - cross-calls between CPUs (see xcall.h).
 *
 * Each CPU has a mailbox (struct xcall_box in struct cpu) guarded by a
 * sender lock.  The sender fills in fn and arg, bumps xb_req, sends an
 * inter-processor interrupt and waits for xb_done to catch up; the target's
 * interrupt handler (or its own wait loop) runs fn and publishes xb_done.
 * Senders wait with interrupts off but poll their own mailbox meanwhile.
 *
 * Parking (xcall_park) has no mailbox: the parker publishes a generation
 * number, interrupts every other CPU, and each, in xcall_poll, notes that
 * it has seen that generation and spins until the parker publishes it as
 * over.  The parker counts the CPUs that noted it; if one is missing at the
 * deadline it publishes the generation over without running the work, so a
 * CPU that notes it late passes straight through.  A late interrupt, for a
 * generation over already, does nothing.
 *
 * Tests: self-tests smp_xcall_reaches_every_cpu, smp_xcall_park,
 *        vm_space_* on 4 CPUs
 */
#include "arch/arch.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/xcall.h"


static spinlock_t park_lock = SPINLOCK_INIT("xcall park");
static uint64_t park_gen;                    /* the newest parking asked for */
static uint64_t park_over;                   /* the newest one let go (or given up) */
static xcall_fn_t *park_resume;
static void *park_arg;
static uint64_t park_seen[MAX_CPUS];         /* the generation each CPU stopped for */

/* park_here: if a parking is on that this CPU has not stopped for, stop until it is over. */
NOTRACE static void park_here(void)
{
	uint64_t gen = __atomic_load_n(&park_gen, __ATOMIC_ACQUIRE);
	int me = curcpu()->cpu_id;

	if (gen == __atomic_load_n(&park_over, __ATOMIC_ACQUIRE) || park_seen[me] == gen)
		return;
	xcall_fn_t *resume = park_resume;        /* set before gen was published */
	void *arg = park_arg;
	__atomic_store_n(&park_seen[me], gen, __ATOMIC_RELEASE);
	while (__atomic_load_n(&park_over, __ATOMIC_ACQUIRE) < gen)
		arch_cpu_relax();
	if (resume != NULL)
		resume(arg);
}

NOTRACE void xcall_poll(void)
{
	struct xcall_box *b = &curcpu()->cpu_xcall;

	park_here();
	uint64_t req = __atomic_load_n(&b->xb_req, __ATOMIC_ACQUIRE);

	if (b->xb_done != req) {
		b->xb_fn(b->xb_arg);
		__atomic_store_n(&b->xb_done, req, __ATOMIC_RELEASE);
	}
}

NOTRACE static void box_lock(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->sl_locked, 1, __ATOMIC_ACQUIRE) != 0) {
		xcall_poll();
		arch_cpu_relax();
	}
}

NOTRACE void xcall(int cpu, xcall_fn_t *fn, void *arg)
{
	uint64_t flags = arch_irq_save();
	struct cpu *self = curcpu(), *to = &cpus[cpu];

	if (cpu == self->cpu_id || !to->cpu_online) {
		if (cpu == self->cpu_id)
			fn(arg);
		arch_irq_restore(flags);
		return;
	}
	CPU_STAT_ADD(self, sysinfo, xcalls, 1);     /* sysinfo:::xcalls */
	box_lock(&to->cpu_xcall_lock);
	struct xcall_box *b = &to->cpu_xcall;
	b->xb_fn = fn;
	b->xb_arg = arg;
	uint64_t req = b->xb_req + 1;
	__atomic_store_n(&b->xb_req, req, __ATOMIC_RELEASE);
	arch_send_ipi(cpu, IPI_XCALL);
	while (__atomic_load_n(&b->xb_done, __ATOMIC_ACQUIRE) != req) {
		xcall_poll();
		arch_cpu_relax();
	}
	__atomic_store_n(&to->cpu_xcall_lock.sl_locked, 0, __ATOMIC_RELEASE);
	arch_irq_restore(flags);
}

void xcall_all(xcall_fn_t *fn, void *arg)
{
	for (int cpu = 0; cpu < ncpus; cpu++)
		xcall(cpu, fn, arg);
}

/* parked_all: has every other online CPU stopped for generation gen? */
NOTRACE static bool parked_all(uint64_t gen)
{
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (cpus[cpu].cpu_online && __atomic_load_n(&park_seen[cpu], __ATOMIC_ACQUIRE) != gen)
			return false;
	return true;
}

NOTRACE bool xcall_park(xcall_fn_t *work, xcall_fn_t *resume, void *arg, uint64_t timeout_ns)
{
	uint64_t flags = arch_irq_save();
	int me = curcpu()->cpu_id;

	box_lock(&park_lock);                    /* another parker may park us meanwhile */
	uint64_t gen = park_over + 1;
	park_resume = resume;
	park_arg = arg;
	park_seen[me] = gen;
	__atomic_store_n(&park_gen, gen, __ATOMIC_RELEASE);
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (cpu != me && cpus[cpu].cpu_online)
			arch_send_ipi(cpu, IPI_XCALL);
	uint64_t deadline = arch_time_ns() + timeout_ns;
	bool all;
	while (!(all = parked_all(gen)) && arch_time_ns() < deadline) {
		xcall_poll();                    /* a CPU waiting on us parks once answered */
		arch_cpu_relax();
	}
	if (all)
		work(arg);
	__atomic_store_n(&park_over, gen, __ATOMIC_RELEASE);
	__atomic_store_n(&park_lock.sl_locked, 0, __ATOMIC_RELEASE);
	arch_irq_restore(flags);
	return all;
}
