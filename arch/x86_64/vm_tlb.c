/*
 * vm_tlb.c - which CPUs hold which address space: lazy switching and TLB
 * shootdowns by cross-call (the paper's section 9 mechanism).
 *
 * Loading.  vm_tlb_cpu_as[c] is the user space whose tables CPU c has in
 * CR3 (NULL: the kernel's own).  arch_as_activate changes it, on that CPU
 * with interrupts off, and does nothing when the space is loaded already,
 * so a process that comes back to the CPU it left keeps its TLB entries.
 * A switch to a kernel thread or the idle thread loads nothing
 * (arch_thread_switch): the last process's tables stay, unused, since the
 * kernel half is the same in every space.
 *
 * The set.  Each space keeps as_cpus, a bit per CPU that has it loaded:
 * set (atomically) before the CR3 write that loads it, cleared after the
 * CR3 write that loads other tables.  Without PCIDs, a CR3 write drops
 * every user entry, so only the CPUs in the set can hold entries of the
 * space.  The order makes the set safe to read without a lock: a CPU that
 * joins after a shooter read the set walks the tables after the shooter's
 * change; one that leaves after the read gets a cross-call it does not
 * need, and ignores it.
 *
 * Shootdown.  Whoever unmaps or downgrades pages calls arch_as_flush:
 * invalidate here (invlpg per page, a CR3 reload above TLB_FLUSH_PAGES),
 * then cross-call each other CPU in the set to do the same if the space is
 * still loaded there.  A CPU that holds the space only lazily (it runs a
 * kernel thread or idles) loads the kernel's tables instead and leaves the
 * set, so a process that moved away costs its old CPU one cross-call, not
 * one per munmap for as long as that CPU idles.  Each cross-call fires sysinfo:::xcalls (xcall.c), in
 * the context of the process that unmapped.  Pages are freed only after
 * arch_as_flush returns.
 *
 * Teardown.  vm_tlb_release, before a space's tables are freed: this CPU
 * and each CPU in the set (by cross-call) load the kernel's tables if they
 * still have the space loaded; it returns when the set is empty.  No CPU
 * can load the space again, since no thread has it as t_as any more (the
 * caller's contract).
 *
 * Tests: self-tests vm_space_* (tests/kernel/vm_tlb_selftest.c) on 4 CPUs;
 *        tests/d/proc; tests/e2e/test_mem.py
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "arch/x86_64/vm_user.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "kernel/xcall.h"

#define TLB_FLUSH_PAGES 32           /* above this many pages, reload CR3 instead of invlpg each */

struct arch_as *vm_tlb_cpu_as[MAX_CPUS];

void arch_as_activate(struct arch_as *as)
{
	int cpu = vm_cpu()->cpu_id;
	struct arch_as *old = vm_tlb_cpu_as[cpu];

	if (old == as)
		return;
	if (as != NULL)
		__atomic_or_fetch(&as->as_cpus, 1UL << cpu, __ATOMIC_SEQ_CST);
	write_cr3(as != NULL ? as->as_root : vm_kernel_root());
	vm_tlb_cpu_as[cpu] = as;
	if (old != NULL)
		__atomic_and_fetch(&old->as_cpus, ~(1UL << cpu), __ATOMIC_SEQ_CST);
}

struct arch_as *arch_as_current(void)
{
	return vm_tlb_loaded();
}

uint64_t arch_as_cpus(struct arch_as *as)
{
	return __atomic_load_n(&as->as_cpus, __ATOMIC_SEQ_CST);
}

/* What a shootdown asks of a CPU. */
struct tlb_shoot {
	struct arch_as *ts_as;
	uint64_t ts_lo, ts_hi;       /* page-aligned */
};

/*
 * tlb_invalidate_here: drop this CPU's entries for the range, if the space
 * is loaded here; if it is loaded only lazily (the thread here is not
 * one of the space's), leave it instead, so the next shootdown skips this
 * CPU.  Interrupts off.
 */
static void tlb_invalidate_here(void *arg)
{
	const struct tlb_shoot *ts = arg;

	if (vm_tlb_loaded() != ts->ts_as)
		return;                      /* its entries went with the CR3 write that replaced it */
	if (vm_cpu()->cpu_thread->t_as != ts->ts_as) {
		arch_as_activate(NULL);
		return;
	}
	if ((ts->ts_hi - ts->ts_lo) / PAGE_SIZE > TLB_FLUSH_PAGES) {
		write_cr3(read_cr3());
		return;
	}
	for (uint64_t va = ts->ts_lo; va < ts->ts_hi; va += PAGE_SIZE)
		invlpg(va);
}

/* tlb_others: the CPUs but this one that have as loaded, after this CPU's page-table stores. */
static uint64_t tlb_others(struct arch_as *as)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);   /* our PTE stores before reading the set */
	return arch_as_cpus(as) & ~(1UL << vm_cpu()->cpu_id);
}

void arch_as_flush(struct arch_as *as, uint64_t lo, uint64_t hi)
{
	struct tlb_shoot ts = { as, ALIGN_DOWN(lo, PAGE_SIZE), ALIGN_UP(MIN(hi, ARCH_USER_TOP), PAGE_SIZE) };
	uint64_t flags = arch_irq_save();

	if (ts.ts_lo >= ts.ts_hi) {
		arch_irq_restore(flags);
		return;
	}
	tlb_invalidate_here(&ts);
	uint64_t others = tlb_others(as);
	arch_irq_restore(flags);
	for (int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (others & (1UL << cpu))
			xcall(cpu, tlb_invalidate_here, &ts);
}

/* tlb_leave: load the kernel's tables here if arg is loaded.  Interrupts off. */
static void tlb_leave(void *arg)
{
	if (vm_tlb_loaded() == arg)
		arch_as_activate(NULL);
}

void vm_tlb_release(struct arch_as *as)
{
	uint64_t flags = arch_irq_save();

	tlb_leave(as);
	uint64_t others = tlb_others(as);
	arch_irq_restore(flags);
	while (others != 0) {
		for (int cpu = 0; cpu < MAX_CPUS; cpu++)
			if (others & (1UL << cpu))
				xcall(cpu, tlb_leave, as);
		others = arch_as_cpus(as);
		if (others != 0)
			arch_cpu_relax();
	}
}
