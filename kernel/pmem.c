/*
 * pmem.c - physical page allocator.
 *
 * At boot the usable regions of the memory map, less the first MiB (BIOS
 * data, later the AP trampoline), the kernel image and the boot modules,
 * become a short list of free ranges.  Pages are taken from the lowest range
 * first, so the page-table code can still reach them through the boot
 * identity map before the direct map exists.  Freed pages go on a list linked
 * through their own first word (via the direct map), which is used first.
 * A spinlock makes it safe from interrupt handlers; never in probe context.
 *
 * Tests: tests/unit/kernel_pmem_test.c; self-tests pages_roundtrip
 */
#include "kernel/boot.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/mem.h"

#define PMEM_MAX_RANGES 64
#define LOW_MEMORY_END  0x100000UL

struct pmem_range {
	uint64_t pr_base;
	uint64_t pr_end;
};

static struct pmem_range ranges[PMEM_MAX_RANGES];
static int nranges;
static uint64_t freed_list;              /* physical address of the first freed page */
static uint64_t free_pages;
static uint64_t total_bytes;
static spinlock_t pmem_lock = SPINLOCK_INIT("pmem");

extern char _boot_start[], _kernel_end[];

static uint64_t kernel_phys_start(void) { return (uint64_t)_boot_start; }
static uint64_t kernel_phys_end(void) { return (uint64_t)_kernel_end - KERNEL_VMA; }

/* range_add: add [base, end) less the holes below it. */
static void range_add(uint64_t base, uint64_t end);

static void range_add_clipped(uint64_t base, uint64_t end, uint64_t hole_base, uint64_t hole_end,
                              int next_hole);

static uint64_t hole_base_of(int i)
{
	if (i == 0)
		return 0;
	if (i == 1)
		return kernel_phys_start();
	return boot_info.bi_mod[i - 2].bmod_start;
}

static uint64_t hole_end_of(int i)
{
	if (i == 0)
		return LOW_MEMORY_END;
	if (i == 1)
		return kernel_phys_end();
	return boot_info.bi_mod[i - 2].bmod_end;
}

/* Holes: low memory, the kernel, each module.  Split [base, end) around hole i onwards. */
static void range_split(uint64_t base, uint64_t end, int i)
{
	int nholes = 2 + boot_info.bi_nmod;

	base = ALIGN_UP(base, PAGE_SIZE);
	end = ALIGN_DOWN(end, PAGE_SIZE);
	if (base >= end)
		return;
	if (i == nholes) {
		range_add(base, end);
		return;
	}
	range_add_clipped(base, end, ALIGN_DOWN(hole_base_of(i), PAGE_SIZE),
	                  ALIGN_UP(hole_end_of(i), PAGE_SIZE), i + 1);
}

static void range_add_clipped(uint64_t base, uint64_t end, uint64_t hb, uint64_t he, int next)
{
	if (he <= base || hb >= end) {          /* no overlap */
		range_split(base, end, next);
		return;
	}
	if (base < hb)
		range_split(base, hb, next);
	if (he < end)
		range_split(he, end, next);
}

static void range_add(uint64_t base, uint64_t end)
{
	if (nranges == PMEM_MAX_RANGES)
		return;
	ranges[nranges++] = (struct pmem_range){ base, end };
	free_pages += (end - base) / PAGE_SIZE;
}

void pmem_init(void)
{
	for (int i = 0; i < boot_info.bi_nmem; i++) {
		const struct boot_mem *m = &boot_info.bi_mem[i];
		if (m->bm_type != BOOT_MEM_USABLE)
			continue;
		total_bytes += m->bm_len;
		range_split(m->bm_base, m->bm_base + m->bm_len, 0);
	}
	if (free_pages == 0)
		panic("pmem: no usable memory in the boot memory map");
}

uint64_t pmem_take(void)
{
	uint64_t pa = 0;

	spin_lock(&pmem_lock);
	if (freed_list != 0) {
		pa = freed_list;
		freed_list = *(uint64_t *)phys_to_virt(pa);
	} else {
		for (int i = 0; i < nranges && pa == 0; i++) {
			if (ranges[i].pr_base < ranges[i].pr_end) {
				pa = ranges[i].pr_base;
				ranges[i].pr_base += PAGE_SIZE;
			}
		}
	}
	if (pa != 0)
		free_pages--;
	spin_unlock(&pmem_lock);
	return pa;
}

void pmem_give(uint64_t pa)
{
	KASSERT(pa != 0 && (pa & (PAGE_SIZE - 1)) == 0);
	spin_lock(&pmem_lock);
	*(uint64_t *)phys_to_virt(pa) = freed_list;
	freed_list = pa;
	free_pages++;
	spin_unlock(&pmem_lock);
}

void *page_alloc(void)
{
	uint64_t pa = pmem_take();

	if (pa == 0)
		return NULL;
	void *va = phys_to_virt(pa);
	memset(va, 0, PAGE_SIZE);
	return va;
}

void page_free(void *va)
{
	pmem_give(virt_to_phys(va));
}

void pmem_stats(struct pmem_stats *st)
{
	st->ps_total = total_bytes;
	st->ps_free = free_pages * PAGE_SIZE;
	st->ps_kernel = kernel_phys_end() - kernel_phys_start();
}

bool pmem_is_ram(uint64_t pa)
{
	for (int i = 0; i < boot_info.bi_nmem; i++) {
		const struct boot_mem *m = &boot_info.bi_mem[i];
		if (m->bm_type != BOOT_MEM_BAD && m->bm_type != BOOT_MEM_RESERVED &&
		    pa >= m->bm_base && pa < m->bm_base + m->bm_len)
			return true;
	}
	return false;
}

uint64_t pmem_ram_end(void)
{
	uint64_t end = 0;

	for (int i = 0; i < boot_info.bi_nmem; i++) {
		const struct boot_mem *m = &boot_info.bi_mem[i];
		if (m->bm_type == BOOT_MEM_USABLE || m->bm_type == BOOT_MEM_ACPI ||
		    m->bm_type == BOOT_MEM_NVS)
			end = MAX(end, m->bm_base + m->bm_len);
	}
	return end;
}
