/*
 * xcall.c - cross-calls between CPUs (see xcall.h).
 *
 * Each CPU has a mailbox (struct xcall_box in struct cpu) guarded by a
 * sender lock.  The sender fills in fn and arg, bumps xb_req, sends an
 * inter-processor interrupt and waits for xb_done to catch up; the target's
 * interrupt handler (or its own wait loop) runs fn and publishes xb_done.
 * Senders wait with interrupts off but poll their own mailbox meanwhile.
 *
 * Tests: self-tests smp_xcall_reaches_every_cpu, vm_space_* on 4 CPUs
 */
#include "arch/arch.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/xcall.h"


NOTRACE void xcall_poll(void)
{
	struct xcall_box *b = &curcpu()->cpu_xcall;
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
