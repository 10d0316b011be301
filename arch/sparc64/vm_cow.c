/*
 * vm_cow.c - sparc64: pages shared between address spaces after fork.
 *
 * The same rules as arch/x86_64/vm_cow.c, without the races of several
 * CPUs (sun4u here has one): a user page mapped in one space has a count
 * of 0 in cow_extra[] (one per physical page: the references beyond the
 * first); fork (user.c, arch_as_copy) shares every leaf, writable ones
 * read-only with the soft COW bit, and adds a reference; arch_as_page_put
 * drops one and frees the page with the last, which is also when it stops
 * counting in arch_user_pages.  The table is allocated with the first
 * address space and never freed; without it (memory short), or booted
 * with nocow, fork copies every page.
 *
 * Tests: tests/e2e/test_sparc64_user.py (/bin/proccheck: fork, copy-on-write);
 *        self-tests vm_fork_* under make sparc64-check
 */
#include "arch/arch.h"
#include "kernel/boot.h"
#include "kernel/klib.h"
#include "kernel/mem.h"

static uint16_t *cow_extra;          /* per physical page: references beyond the first */
static uint64_t cow_npages;
static int cow_mode;                 /* 0: not read yet, 1: on, 2: off (nocow) */

void vm_user_pages_sub(void);        /* user.c */

bool vm_cow_enabled(void)
{
	if (cow_mode == 0)
		cow_mode = cmdline_get(boot_info.bi_cmdline, "nocow", NULL, 0) ? 2 : 1;
	return cow_mode == 1 && cow_extra != NULL;
}

/* vm_cow_refs_init: the reference table, sized for the highest usable page (thread context). */
void vm_cow_refs_init(void)
{
	uint64_t top = 0;

	if (cow_extra != NULL)
		return;
	for (int i = 0; i < boot_info.bi_nmem; i++)
		if (boot_info.bi_mem[i].bm_type == BOOT_MEM_USABLE)
			top = MAX(top, boot_info.bi_mem[i].bm_base + boot_info.bi_mem[i].bm_len);
	uint16_t *table = kzalloc((top / PAGE_SIZE) * sizeof(uint16_t));
	if (table == NULL)
		return;
	cow_npages = top / PAGE_SIZE;
	cow_extra = table;
}

static uint16_t *page_extra(void *page)
{
	uint64_t pfn = virt_to_phys(page) / PAGE_SIZE;

	KASSERT(cow_extra != NULL && pfn < cow_npages);
	return &cow_extra[pfn];
}

void vm_cow_ref(void *page)
{
	uint16_t *x = page_extra(page);

	KASSERT(*x < 0xffff);
	__atomic_add_fetch(x, 1, __ATOMIC_ACQ_REL);
}

bool vm_cow_shared(void *page)
{
	return cow_extra != NULL && __atomic_load_n(page_extra(page), __ATOMIC_ACQUIRE) != 0;
}

void arch_as_page_put(void *page)
{
	if (cow_extra != NULL) {
		uint16_t *x = page_extra(page), n = __atomic_load_n(x, __ATOMIC_ACQUIRE);
		while (n != 0)
			if (__atomic_compare_exchange_n(x, &n, n - 1, false, __ATOMIC_ACQ_REL,
			                                __ATOMIC_ACQUIRE))
				return;              /* another space still maps it */
	}
	page_free(page);
	vm_user_pages_sub();
}
