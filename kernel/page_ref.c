/*
 * page_ref.c - reference counts of physical pages that several address
 * spaces map: what copy-on-write fork shares, on every machine.
 *
 * A user page mapped in one space has no entry anywhere: its count in
 * page_extra[] (one per physical page: the references beyond the first) is
 * 0.  fork (each machine's arch_as_copy) maps a parent's page in the child
 * too and takes a reference (page_ref_get); the machine's arch_as_page_put
 * drops one (page_ref_put) and frees the page with the last.  The table is
 * allocated with the first address space and never freed; without it
 * (memory short), or booted with nocow, page_ref_enabled() is false and
 * fork copies every page.  Only a holder of a reference changes a count, so
 * a count of 0 read by a holder stays 0.
 *
 * Context: thread context (fork, exit, a copy-on-write fault's handler);
 * the counts are atomic, so several CPUs may take and drop references of
 * one page at once.  Never in probe context.
 *
 * Tests: self-tests vm_fork_shares_and_private_copies_count_exactly
 *        (tests/kernel/vm_tlb_selftest.c, on both machines);
 *        tests/e2e/test_mem.py, tests/e2e/test_sparc64_user.py
 */
#include "kernel/boot.h"
#include "kernel/klib.h"
#include "kernel/mem.h"

static uint16_t *page_extra;         /* per physical page: references beyond the first */
static uint64_t page_npages;         /* entries in page_extra */
static int page_cow_mode;            /* 0: not read yet, 1: on, 2: off (nocow) */

bool page_ref_enabled(void)
{
	if (page_cow_mode == 0)
		page_cow_mode = cmdline_get(boot_info.bi_cmdline, "nocow", NULL, 0) ? 2 : 1;
	return page_cow_mode == 1 && __atomic_load_n(&page_extra, __ATOMIC_ACQUIRE) != NULL;
}

void page_ref_init(void)
{
	uint64_t top = 0;

	if (__atomic_load_n(&page_extra, __ATOMIC_ACQUIRE) != NULL)
		return;
	for (int i = 0; i < boot_info.bi_nmem; i++)
		if (boot_info.bi_mem[i].bm_type == BOOT_MEM_USABLE)
			top = MAX(top, boot_info.bi_mem[i].bm_base + boot_info.bi_mem[i].bm_len);
	uint64_t n = top / PAGE_SIZE;
	uint16_t *table = kzalloc(n * sizeof(uint16_t)), *none = NULL;
	if (table == NULL)
		return;                      /* fork copies, then */
	page_npages = n;                 /* the same n for every caller, before the table is seen */
	if (!__atomic_compare_exchange_n(&page_extra, &none, table, false, __ATOMIC_ACQ_REL,
	                                 __ATOMIC_ACQUIRE))
		kfree(table);
}

static uint16_t *extra_of(void *page)
{
	uint64_t pfn = virt_to_phys(page) / PAGE_SIZE;

	KASSERT(page_extra != NULL && pfn < page_npages);
	return &page_extra[pfn];
}

void page_ref_get(void *page)
{
	uint16_t *x = extra_of(page);

	KASSERT(*x < 0xffff);
	__atomic_add_fetch(x, 1, __ATOMIC_ACQ_REL);
}

bool page_ref_shared(void *page)
{
	return page_extra != NULL && __atomic_load_n(extra_of(page), __ATOMIC_ACQUIRE) != 0;
}

bool page_ref_put(void *page)
{
	if (page_extra != NULL) {
		uint16_t *x = extra_of(page), n = __atomic_load_n(x, __ATOMIC_ACQUIRE);
		while (n != 0)
			if (__atomic_compare_exchange_n(x, &n, n - 1, false, __ATOMIC_ACQ_REL,
			                                __ATOMIC_ACQUIRE))
				return false;        /* another space still maps it */
	}
	return true;
}
