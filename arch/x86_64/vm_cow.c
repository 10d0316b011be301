/*
 * vm_cow.c - pages shared between address spaces: reference counts,
 * copy-on-write fork, and a process's private copy of one page.
 *
 * References (kernel/page_ref.c, the same on every machine): fork
 * (arch_as_copy) maps every leaf of the parent in the child too and takes a
 * reference (page_ref_get); arch_as_page_put drops one and frees the page
 * with the last, which is also when it stops counting in arch_user_pages (so
 * `pmem` counts each physical page once, and reads 0 when no process is
 * left).
 *
 * Copy-on-write.  fork turns each writable leaf of the parent read-only
 * with PTE_COW set (a software bit: "writable once private"), shares it,
 * and flushes the parent's TLB (arch_as_flush).  A write to such a page
 * faults (from user mode, or from the kernel's user_copy inside a system
 * call); vm_cow_fault, called by trap.c before anything else looks at the
 * fault, makes the page private: if this space holds the only reference it
 * sets the write bit, else it copies the page, maps the copy writable and
 * drops a reference on the old one, after a flush (other CPUs may hold the
 * old entry); each such fault is vminfo's cow_fault (arg0 the pages copied:
 * 0 or 1).  Read-only leaves (text, rodata) are shared too, without
 * PTE_COW: a write to them is a real fault.
 *
 * Races.  A space's leaves change only in its own thread, except through
 * arch_as_page_private, which a tracer calls from its own thread (the pid
 * provider writes breakpoints into text).  Both replace a leaf with a
 * compare-and-swap on the entry and start over if it changed;
 * arch_as_unmap takes the entry with an atomic exchange.
 *
 * Booted with nocow, fork copies every page (arch_as_copy), for the
 * figures' "before" (make bench).
 *
 * Tests: self-tests vm_fork_shares_and_private_copies_count_exactly
 *        (tests/kernel/vm_tlb_selftest.c); tests/e2e/test_mem.py
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "arch/x86_64/vm_user.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"

#define PF_PRESENT 0x1
#define PF_WRITE   0x2
#define PF_FETCH   0x10

void arch_as_page_put(void *page)
{
	if (page_ref_put(page)) {
		page_free(page);
		vm_user_pages_add(-1);
	}
}

/*
 * page_make_private: replace the leaf at e (va in as), whose entry was old,
 * by a private copy, with the entry's flags and set (PTE_W) or cleared;
 * true if done, false if memory is short or the entry changed meanwhile
 * (*again then says to retry).
 */
static bool page_make_private(struct arch_as *as, uint64_t va, uint64_t *e, uint64_t old,
                              uint64_t set, uint64_t clear, bool *again)
{
	void *page = phys_to_virt(old & PTE_ADDR), *copy = NULL;
	uint64_t new = (old | set) & ~clear;

	*again = false;
	if (page_ref_shared(page)) {
		if ((copy = page_alloc()) == NULL)
			return false;
		memcpy(copy, page, PAGE_SIZE);
		new = (new & ~PTE_ADDR) | virt_to_phys(copy);
	}
	if (!__atomic_compare_exchange_n(e, &old, new, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		if (copy != NULL)
			page_free(copy);
		*again = true;
		return false;
	}
	arch_as_flush(as, va, va + PAGE_SIZE);
	if (clear & PTE_COW)
		VMINFO_ADD(cow_fault, copy != NULL ? 1 : 0);   /* a copy-on-write fault: the pages it made */
	if (copy != NULL) {
		vm_user_pages_add(1);
		arch_as_page_put(page);      /* after the flush: nobody here reaches it any more */
	}
	return true;
}

bool vm_cow_fault(struct trapframe *tf)
{
	uint64_t va = ALIGN_DOWN(read_cr2(), PAGE_SIZE);
	struct arch_as *as = vm_cpu()->cpu_thread->t_as;
	bool done = false, again = true;

	if (tf->tf_vector != 14 || (tf->tf_err & (PF_PRESENT | PF_WRITE | PF_FETCH)) !=
	    (PF_PRESENT | PF_WRITE) || va >= ARCH_USER_TOP || as == NULL || vm_tlb_loaded() != as)
		return false;
	if (tf->tf_rflags & RFLAGS_IF)
		arch_irq_enable();           /* it may copy and cross-call */
	while (again) {
		uint64_t *e = vm_as_leaf(as, va, false);
		uint64_t old = e != NULL ? __atomic_load_n(e, __ATOMIC_SEQ_CST) : 0;
		if ((old & (PTE_P | PTE_U)) != (PTE_P | PTE_U))
			break;
		if (old & PTE_W) {
			done = true;             /* made writable meanwhile; our TLB entry was stale */
			invlpg(va);
			break;
		}
		if (!(old & PTE_COW))
			break;                   /* really read-only */
		done = page_make_private(as, va, e, old, PTE_W, PTE_COW, &again);
	}
	arch_irq_disable();
	return done;
}

void *arch_as_page_private(struct arch_as *as, uint64_t va)
{
	va = ALIGN_DOWN(va, PAGE_SIZE);
	for (bool again = true; again && va < ARCH_USER_TOP;) {
		uint64_t *e = vm_as_leaf(as, va, false);
		uint64_t old = e != NULL ? __atomic_load_n(e, __ATOMIC_SEQ_CST) : 0;
		if (!(old & PTE_P))
			return NULL;
		if (!page_ref_shared(phys_to_virt(old & PTE_ADDR)))
			return phys_to_virt(old & PTE_ADDR);
		if (page_make_private(as, va, e, old, 0, 0, &again))
			return phys_to_virt(__atomic_load_n(e, __ATOMIC_SEQ_CST) & PTE_ADDR);
	}
	return NULL;
}
