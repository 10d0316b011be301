/*
 * vm.c - sparc64: the kernel's address space (the layout is in machine.h).
 *
 * The MMU of UltraSPARC is a pair of software-filled TLBs: traps.S fills a
 * miss from the rules below, and this file keeps what those rules read.
 *   - the image: 8 KiB pages, physical = virtual - KERNEL_VMA; the I-MMU maps only text,
 *     the D-MMU writes only data and bss (W^X as on x86_64);
 *   - the direct map: 4 MiB pages computed from the address, up to
 *     sparc64_ram_top;
 *   - the heap's large blocks: a two-level table, the directory of
 *     the physical addresses of leaf pages, each 1024 TTEs (8 MiB); a
 *     leaf that maps nothing any more is unhooked (vm_leaf_release) and
 *     given back by the heap.
 * Text is patched through the direct map's alias of its page (writable),
 * then `flush` makes the instruction fetch see the new word.
 * The TLB is per CPU and there is one CPU, so unmapping demaps the page
 * here and that is all.
 *
 * Tests: self-tests vm_wx, text_patch_roundtrip, pages_roundtrip under make
 *        sparc64-check
 */
#include "arch/arch.h"
#include "arch/sparc64/sparc64.h"
#include "kernel/boot.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/mem.h"

#define TTE_V      (1UL << 63)
#define TTE_PA     0x000001ffffffe000UL
#define TTE_KERN   0x35UL          /* CP | CV | P | G: global, every context sees it */
#define TTE_W      0x02UL
#define LEAF_SHIFT 23              /* one leaf maps 8 MiB */
#define DIR_SLOTS  MMU_DIR_SLOTS   /* 4 GiB of heap */
#define LEAF_SLOTS 1024

extern char _kernel_start[], _kernel_end[], _text_start[], _text_end[], _data_start[];

/*
 * What the D-TLB miss handler reads, in one page that traps.S keeps locked
 * in the D-TLB (a miss there would recurse); sparc64.h.
 */
_Static_assert(sizeof(struct sparc64_mmu_page) <= 8192, "the MMU page is one page");
__attribute__((section(".data.mmu"), aligned(8192)))
struct sparc64_mmu_page sparc64_mmu_page;
#define sparc64_ram_top   sparc64_mmu_page.mp_ram_top
#define sparc64_kheap_dir sparc64_mmu_page.mp_kheap_dir
static spinlock_t vm_lock = SPINLOCK_INIT("vm");
static uint64_t heap_tables;             /* leaf pages in the directory (vm_heap_tables) */

void sparc64_mmu_init(void)
{
	for (int i = 0; i < boot_info.bi_nmem; i++) {
		uint64_t end = boot_info.bi_mem[i].bm_base + boot_info.bi_mem[i].bm_len;
		if (end > sparc64_ram_top)
			sparc64_ram_top = end;
	}
}

uint64_t sparc64_ram_end(void) { return sparc64_ram_top; }

void vm_init(void) {}

static bool in_image(uint64_t va) { return va >= 0x40000000 && va < (uint64_t)_kernel_end; }
static bool in_dmap(uint64_t va) { return va >= DMAP_BASE && va - DMAP_BASE < sparc64_ram_top; }
static bool in_kheap(uint64_t va) { return va >= KHEAP_BASE && va - KHEAP_BASE < KHEAP_SIZE; }
static bool is_text(uint64_t va) { return va >= (uint64_t)_text_start && va < (uint64_t)_text_end; }

/* heap_tte: the table's entry for va (in the heap area), or NULL when no leaf. */
static uint64_t *heap_tte(uint64_t va, bool make)
{
	uint64_t off = va - KHEAP_BASE, *dir = &sparc64_kheap_dir[off >> LEAF_SHIFT];

	if (*dir == 0) {
		uint64_t pa = make ? pmem_take() : 0;
		if (pa == 0)
			return NULL;
		memset(phys_to_virt(pa), 0, PAGE_SIZE);
		*dir = pa;
		heap_tables++;
	}
	return (uint64_t *)phys_to_virt(*dir) + ((off >> 13) & (LEAF_SLOTS - 1));
}

static void tlb_demap(uint64_t va)
{
	__asm__ volatile("stxa %%g0, [%0] 0x5f; membar #Sync" :: "r"(va & ~0x1fffUL) : "memory");
}

bool vm_map(uint64_t va, uint64_t pa, int prot)
{
	if (!in_kheap(va) || (va & (PAGE_SIZE - 1)))
		return false;
	spin_lock(&vm_lock);
	uint64_t *e = heap_tte(va, true);
	if (e != NULL)
		*e = TTE_V | (pa & TTE_PA) | TTE_KERN | ((prot & VM_WRITE) ? TTE_W : 0);
	spin_unlock(&vm_lock);
	return e != NULL;
}

void vm_unmap(uint64_t va)
{
	if (!in_kheap(va))
		return;
	spin_lock(&vm_lock);
	uint64_t *e = heap_tte(va, false);
	if (e != NULL)
		*e = 0;
	tlb_demap(va);
	spin_unlock(&vm_lock);
}

uint64_t vm_leaf_release(uint64_t va)
{
	if (!in_kheap(va))
		return 0;
	spin_lock(&vm_lock);
	uint64_t *dir = &sparc64_kheap_dir[(va - KHEAP_BASE) >> LEAF_SHIFT], pa = *dir;
	const uint64_t *leaf = pa != 0 ? phys_to_virt(pa) : NULL;
	for (int i = 0; leaf != NULL && i < LEAF_SLOTS; i++)
		if (leaf[i] & TTE_V)
			pa = 0;
	if (pa != 0) {
		*dir = 0;                /* the miss handler reads the directory afresh each miss */
		heap_tables--;
	}
	spin_unlock(&vm_lock);
	return pa;
}

uint64_t vm_heap_tables(void)
{
	return heap_tables;
}

/* arch_tlb_flush_kernel (arch.h): vm_unmap demapped each page already, on the one CPU. */
void arch_tlb_flush_kernel(void) {}

/* Devices are reached through the bypass ASI (sparc64.h): nothing to map. */
volatile void *vm_map_mmio(uint64_t phys, size_t size)
{
	(void)size;
	return (volatile void *)phys;
}

uint64_t virt_to_phys(const void *p)
{
	uint64_t va = (uint64_t)p;

	if (in_dmap(va))
		return va - DMAP_BASE;
	if (in_image(va))
		return va - KERNEL_VMA;
	if (in_kheap(va)) {
		uint64_t *e = heap_tte(va, false);
		if (e != NULL && (*e & TTE_V))
			return (*e & TTE_PA) | (va & (PAGE_SIZE - 1));
	}
	return 0;
}

static bool page_readable(uint64_t va)
{
	if (in_image(va) || in_dmap(va))
		return true;
	if (!in_kheap(va))
		return false;
	uint64_t *e = heap_tte(va, false);
	return e != NULL && (*e & TTE_V);
}

bool mem_probe(uint64_t va, size_t len)
{
	if (len == 0)
		return true;
	if (va + len < va)
		return false;
	for (uint64_t p = ALIGN_DOWN(va, PAGE_SIZE); p < va + len; p += PAGE_SIZE)
		if (!page_readable(p))
			return false;
	return true;
}

bool text_patch(void *addr, const void *bytes, size_t len)
{
	uint64_t va = (uint64_t)addr;

	if (len == 0 || len > PAGE_SIZE || !is_text(va) || !is_text(va + len - 1))
		return false;
	memcpy(phys_to_virt(va - KERNEL_VMA), bytes, len);     /* the direct map's alias */
	for (uint64_t p = ALIGN_DOWN(va, 8); p < va + len; p += 8)
		__asm__ volatile("flush %0" :: "r"(p) : "memory");
	return true;
}

void text_patch_sync(void) {}

/* Every write is flushed as it is made (text_patch), so stopping no CPU is needed. */
bool text_patch_stopped(void (*writes)(void *arg), void *arg)
{
	uint64_t flags = arch_irq_save();

	writes(arg);
	arch_irq_restore(flags);
	return true;
}

bool text_write_stopped(void *addr, const void *bytes, size_t len)
{
	return text_patch(addr, bytes, len);
}

/* vm_wx_violations: the image's pages the miss rules (traps.S) would map writable and executable. */
int vm_wx_violations(void)
{
	int bad = 0;

	for (uint64_t va = (uint64_t)_kernel_start; va < (uint64_t)_kernel_end; va += PAGE_SIZE)
		if (is_text(va) && va >= (uint64_t)_data_start)
			bad++;
	return bad;
}
