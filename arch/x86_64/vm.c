/*
 * vm.c - the kernel's page tables.
 *
 * vm_init() replaces the boot tables with the final layout:
 *
 *   0xffff800000000000  direct map of RAM, read/write, never executable
 *                       (2 MiB pages; 4 KiB pages around the kernel image,
 *                       whose text is read-only there too)
 *   0xffffc00000000000  kernel heap area for large allocations (vm_map); a
 *                       leaf table that maps nothing any more is unhooked
 *                       (vm_leaf_release) and freed after a TLB epoch
 *   0xffffffff80000000  the kernel image, 4 KiB pages: text R+X, rodata and
 *                       symbols R, data and bss R+W+NX
 *   0xffffffffffe00000  the text-patching window (two pages)
 *
 * Nothing is both writable and executable.  text_patch() maps the physical
 * page under a text address writable at the window, writes, and unmaps;
 * text_patch_sync() makes every CPU see what was written (see below).
 * Page-table pages come from pmem_take(); before the direct map exists they
 * are reached through the boot identity map (they lie in the first GiB).
 *
 * Tests: self-tests vm_wx, text_patch_roundtrip, mem_probe_classifies
 *        (tests/kernel/kernel_selftest.c)
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "kernel/klib.h"
#include "kernel/cpu.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/time.h"
#include "kernel/xcall.h"

#define PTE_P     0x001UL
#define PTE_W     0x002UL
#define PTE_PWT   0x008UL
#define PTE_PCD   0x010UL
#define PTE_PS    0x080UL
#define PTE_G     0x100UL
#define PTE_NX    (1UL << 63)
#define PTE_ADDR  0x000ffffffffff000UL
#define LARGE     (2UL << 20)
#define PATCH_WINDOW 0xffffffffffe00000UL

extern char _kernel_start[], _text_end[], _rodata_end[], _data_end[], _kernel_end[];

static uint64_t kernel_pml4;             /* physical */
static bool dmap_ready;
static uint64_t heap_tables;             /* tables made for heap addresses (vm_heap_tables) */

static uint64_t *pt_va(uint64_t pa)
{
	return dmap_ready ? phys_to_virt(pa) : (uint64_t *)pa;
}

static uint64_t pt_alloc(void)
{
	uint64_t pa = pmem_take();

	if (pa == 0)
		return 0;
	if (!dmap_ready && pa >= (1UL << 30))
		panic("vm: page table page above the boot identity map");
	memset(pt_va(pa), 0, PAGE_SIZE);
	return pa;
}

static int pt_index(uint64_t va, int level)
{
	return (va >> (12 + 9 * level)) & 511;
}

/*
 * split_large: turn the 2 MiB page at PD entry e into 512 4 KiB pages with
 * the same mapping and permissions (so one of them can change, e.g. the
 * LAPIC's page inside a direct-map page that covers the PCI hole).
 */
static bool split_large(uint64_t *e)
{
	uint64_t pa = pt_alloc(), base = *e & PTE_ADDR & ~(LARGE - 1);
	uint64_t flags = *e & ~PTE_ADDR & ~PTE_PS;

	if (pa == 0)
		return false;
	uint64_t *pt = pt_va(pa);
	for (int i = 0; i < 512; i++)
		pt[i] = (base + (uint64_t)i * PAGE_SIZE) | flags;
	*e = pa | PTE_P | PTE_W;
	return true;
}

/*
 * pte_find: the entry for va at the given level (0 = 4 KiB page table,
 * 1 = page directory), creating missing tables when create is set.
 */
static uint64_t *pte_find(uint64_t va, int level, bool create)
{
	uint64_t table = kernel_pml4;

	for (int l = 3; l > level; l--) {
		uint64_t *e = &pt_va(table)[pt_index(va, l)];
		if (!(*e & PTE_P)) {
			if (!create)
				return NULL;
			uint64_t pa = pt_alloc();
			if (pa == 0)
				return NULL;
			*e = pa | PTE_P | PTE_W;
			if (va >= KHEAP_BASE && va - KHEAP_BASE < KHEAP_SIZE)
				heap_tables++;
		} else if (*e & PTE_PS) {
			if (!create || l != 1 || !split_large(e))
				return NULL;            /* inside a large page */
		}
		table = *e & PTE_ADDR;
	}
	return &pt_va(table)[pt_index(va, level)];
}

static void map_page(uint64_t va, uint64_t pa, uint64_t flags)
{
	uint64_t *e = pte_find(va, 0, true);

	if (e == NULL)
		panic("vm: cannot map %lx", va);
	*e = pa | flags | PTE_P;
}

static bool is_text(uint64_t va)
{
	return va >= (uint64_t)_kernel_start && va < (uint64_t)_text_end;
}

static uint64_t image_flags(uint64_t va)
{
	if (va < (uint64_t)_text_end)
		return PTE_G;                           /* text: read, execute */
	if (va < (uint64_t)_rodata_end || va >= (uint64_t)_data_end)
		return PTE_G | PTE_NX;                  /* rodata, symbols */
	return PTE_G | PTE_W | PTE_NX;                  /* data, bss */
}

static void map_kernel_image(void)
{
	for (uint64_t va = (uint64_t)_kernel_start; va < (uint64_t)_kernel_end; va += PAGE_SIZE)
		map_page(va, va - KERNEL_VMA, image_flags(va));
}

/* The direct map: 2 MiB pages, except where the kernel image lives. */
static void map_direct(void)
{
	uint64_t kstart = ALIGN_DOWN((uint64_t)_kernel_start - KERNEL_VMA, LARGE);
	uint64_t kend = ALIGN_UP((uint64_t)_kernel_end - KERNEL_VMA, LARGE);
	uint64_t end = ALIGN_UP(pmem_ram_end(), LARGE);

	for (uint64_t pa = 0; pa < end; pa += LARGE) {
		if (pa >= kstart && pa < kend) {
			for (uint64_t p = pa; p < pa + LARGE; p += PAGE_SIZE)
				map_page(DMAP_BASE + p, p, PTE_NX | PTE_G | (is_text(p + KERNEL_VMA) ? 0 : PTE_W));
			continue;
		}
		uint64_t *e = pte_find(DMAP_BASE + pa, 1, true);
		if (e == NULL)
			panic("vm: cannot map the direct map at %lx", pa);
		*e = pa | PTE_P | PTE_W | PTE_PS | PTE_G | PTE_NX;
	}
}

/*
 * vm_kernel_half_fill: give every kernel-half PML4 entry a table now, so
 * that the entries a user address space copies (vm_user.c) never change:
 * whatever the kernel maps later lands in tables all address spaces share.
 */
static void vm_kernel_half_fill(void)
{
	uint64_t *pml4 = pt_va(kernel_pml4);

	for (int i = 256; i < 512; i++) {
		if (pml4[i] & PTE_P)
			continue;
		uint64_t pa = pt_alloc();
		if (pa == 0)
			panic("vm: no memory for the kernel half's tables");
		pml4[i] = pa | PTE_P | PTE_W;
	}
}

uint64_t vm_kernel_root(void)
{
	return kernel_pml4;
}

void vm_init(void)
{
	kernel_pml4 = pt_alloc();
	map_kernel_image();
	map_direct();
	/* Pre-create the tables of the patch window so text_patch never allocates. */
	(void)pte_find(PATCH_WINDOW, 0, true);
	vm_kernel_half_fill();
	write_cr3(kernel_pml4);
	dmap_ready = true;
}

/*
 * vm_map_low: map (or unmap) the first 2 MiB at address 0, writable and
 * executable, for the moment APs turn paging on in ap_tramp.asm.  The only
 * W+X mapping the kernel ever has, and only while APs start.
 */
void vm_map_low(bool on)
{
	uint64_t *e = pte_find(0, 1, on);

	if (e == NULL)
		panic("vm: cannot map low memory for AP start-up");
	*e = on ? (0 | PTE_P | PTE_W | PTE_PS) : 0;
	invlpg(0);
}

volatile void *vm_map_mmio(uint64_t phys, size_t size)
{
	for (uint64_t p = ALIGN_DOWN(phys, PAGE_SIZE); p < phys + size; p += PAGE_SIZE) {
		uint64_t *e = pte_find(DMAP_BASE + p, 0, true);
		if (e == NULL)
			panic("vm: cannot map device memory at %lx (inside a large page?)", p);
		*e = p | PTE_P | PTE_W | PTE_PCD | PTE_PWT | PTE_NX;
		invlpg(DMAP_BASE + p);
	}
	return (volatile void *)(DMAP_BASE + phys);
}

bool vm_map(uint64_t va, uint64_t pa, int prot)
{
	uint64_t *e = pte_find(va, 0, true);

	if (e == NULL)
		return false;
	*e = pa | PTE_P | PTE_NX | ((prot & VM_WRITE) ? PTE_W : 0);
	invlpg(va);
	return true;
}

void vm_unmap(uint64_t va)
{
	uint64_t *e = pte_find(va, 0, false);

	if (e != NULL) {
		*e = 0;
		invlpg(va);
	}
}

uint64_t vm_leaf_release(uint64_t va)
{
	uint64_t *pde = pte_find(va, 1, false);

	if (pde == NULL || !(*pde & PTE_P) || (*pde & PTE_PS))
		return 0;
	uint64_t pa = *pde & PTE_ADDR;
	const uint64_t *pt = pt_va(pa);
	for (int i = 0; i < 512; i++)
		if (pt[i] != 0)
			return 0;
	*pde = 0;
	invlpg(va);                      /* also drops this CPU's cached directory entries */
	heap_tables--;
	return pa;
}

uint64_t vm_heap_tables(void)
{
	return heap_tables;
}

/* arch_tlb_flush_kernel (arch.h): heap pages are not global, so reloading CR3 drops them all. */
void arch_tlb_flush_kernel(void)
{
	write_cr3(read_cr3());
}

/* vm_leaf: the leaf entry mapping va (4 KiB or 2 MiB), or NULL. */
static uint64_t vm_leaf(uint64_t va)
{
	uint64_t table = kernel_pml4;

	for (int l = 3; l >= 0; l--) {
		uint64_t e = pt_va(table)[pt_index(va, l)];
		if (!(e & PTE_P))
			return 0;
		if (l == 0 || (e & PTE_PS))
			return e;
		table = e & PTE_ADDR;
	}
	return 0;
}

/*
 * vm_fault_spurious: a kernel fault at va in the heap area that the tables
 * do not explain (va mapped, writable if write).  This CPU walked a leaf
 * table the heap had unhooked, through its stale copy of the directory
 * entry (kernel/kheap.c); the fault dropped that copy, so the access can
 * simply be retried.  Any context.
 */
bool vm_fault_spurious(uint64_t va, bool write)
{
	if (va < KHEAP_BASE || va - KHEAP_BASE >= KHEAP_SIZE)
		return false;
	uint64_t e = vm_leaf(va);
	if (!(e & PTE_P) || (write && !(e & PTE_W)))
		return false;
	invlpg(va);
	return true;
}

static bool va_canonical(uint64_t va)
{
	return va < 0x0000800000000000UL || va >= 0xffff800000000000UL;
}

bool mem_probe(uint64_t va, size_t len)
{
	if (len == 0)
		return true;
	if (va + len < va)
		return false;
	for (uint64_t p = ALIGN_DOWN(va, PAGE_SIZE); p < va + len; p += PAGE_SIZE) {
		if (!va_canonical(p))
			return false;
		uint64_t e = vm_leaf(p);
		if (e == 0 || (e & PTE_PCD))
			return false;
		if (p >= DMAP_BASE && p < DMAP_BASE + (1UL << 46) && !pmem_is_ram(p - DMAP_BASE))
			return false;
	}
	return true;
}

uint64_t virt_to_phys(const void *p)
{
	uint64_t va = (uint64_t)p, e;

	if (va >= KERNEL_VMA)
		return va - KERNEL_VMA;
	if (va >= DMAP_BASE && va < KHEAP_BASE)
		return va - DMAP_BASE;
	e = vm_leaf(va);
	if (e == 0)
		return 0;
	uint64_t offset_mask = (e & PTE_PS) ? LARGE - 1 : PAGE_SIZE - 1;
	return (e & PTE_ADDR & ~offset_mask) | (va & offset_mask);
}

/*
 * Cross-modifying code.  A CPU may go on running instruction bytes it
 * fetched (or, under QEMU's TCG, translated) before another CPU wrote them;
 * the architecture only promises the new bytes once that CPU has serialised
 * after the write.  Taking an interrupt and returning from it serialises, so
 * a cross-call to every CPU is the synchronisation point.  Under TCG we saw
 * more (while stressing fbt::: on 4 CPUs): three vCPUs trapping for minutes on an int3 that memory no
 * longer held, until gdb made QEMU drop its translations.  The likely way: a
 * vCPU translating a block while the byte is written reads the old byte and
 * publishes its translation after the write invalidated the others; it is
 * then used by every vCPU until the page is written again.  So each range
 * written since the last synchronisation is written once more, with the same
 * bytes, after it: a translation made before that point is invalidated, one
 * made after it reads the new bytes.  (What makes a stale trap harmless in
 * any case is that fbt and sdt replay a disarmed site instead of resuming at
 * it; this only bounds how long a CPU sees old bytes.)
 *
 * text_patch writes and logs the range; text_patch_sync does the cross-call
 * and the second writes.  A full log syncs by itself.  The log holds a whole
 * fbt::: batch's writes in a few syncs: with 256 ranges, taking 4600 sites
 * back took some fifty cross-calls, each waiting for every vCPU of a loaded
 * host, and was most of the 2-10 s a Ctrl-C on the flood took on 4 CPUs.
 */
#define PATCH_LOG_MAX 4096

struct patch_range {
	uint64_t pr_va;
	uint32_t pr_len;
};

static spinlock_t patch_lock = SPINLOCK_INIT("text patch");
static struct patch_range patch_log[PATCH_LOG_MAX];
static int patch_nlog;

/* The other CPUs take an interrupt and return from it: that serialises them. */
static void text_sync(void *arg)
{
	(void)arg;
}

/* window_write: write len bytes at text address va through the window.  patch_lock held. */
static void window_write(uint64_t va, const void *bytes, size_t len)
{
	uint64_t page = ALIGN_DOWN(va, PAGE_SIZE);
	uint64_t *e0 = pte_find(PATCH_WINDOW, 0, false);
	uint64_t *e1 = pte_find(PATCH_WINDOW + PAGE_SIZE, 0, false);

	*e0 = (page - KERNEL_VMA) | PTE_P | PTE_W | PTE_NX;
	*e1 = (page + PAGE_SIZE - KERNEL_VMA) | PTE_P | PTE_W | PTE_NX;
	invlpg(PATCH_WINDOW);
	invlpg(PATCH_WINDOW + PAGE_SIZE);
	memmove((void *)(PATCH_WINDOW + (va - page)), bytes, len);
	*e0 = 0;
	*e1 = 0;
	invlpg(PATCH_WINDOW);
	invlpg(PATCH_WINDOW + PAGE_SIZE);
}

bool text_patch(void *addr, const void *bytes, size_t len)
{
	uint64_t va = (uint64_t)addr;
	bool full;

	if (len == 0 || len > PAGE_SIZE || !is_text(va) || !is_text(va + len - 1))
		return false;
	spin_lock(&patch_lock);
	window_write(va, bytes, len);
	if (ncpus > 1)
		patch_log[patch_nlog++] = (struct patch_range){ va, (uint32_t)len };
	full = patch_nlog == PATCH_LOG_MAX;
	spin_unlock(&patch_lock);
	if (full)
		text_patch_sync();
	return true;
}

void text_patch_sync(void)
{
	spin_lock(&patch_lock);
	int n = patch_nlog;                      /* what was written before the cross-call */
	spin_unlock(&patch_lock);
	if (n == 0)
		return;
	xcall_all(text_sync, NULL);
	spin_lock(&patch_lock);
	for (int i = 0; i < n; i++)              /* the same bytes again: see above */
		window_write(patch_log[i].pr_va, (const void *)patch_log[i].pr_va, patch_log[i].pr_len);
	memmove(patch_log, patch_log + n, (size_t)(patch_nlog - n) * sizeof(patch_log[0]));
	patch_nlog -= n;
	spin_unlock(&patch_lock);
}

/*
 * Patching with the other CPUs stopped (xcall_park): none of them runs or
 * translates text while the writes are made, so each range is written once
 * and in any order, and the whole batch costs one rendezvous instead of a
 * cross-call and a second write per stage.  Each CPU runs cpuid, which
 * serialises, before it goes on.  Under TCG this is also what keeps a
 * batch cheap: a code page is invalidated at its first write, and no vCPU
 * translates it again before the batch is over.
 */
#define TEXT_PARK_TIMEOUT_NS (50 * NSEC_PER_MSEC)

struct stopped_batch {
	void (*sb_writes)(void *arg);
	void *sb_arg;
};

static bool text_stopped;                    /* on the parker, while a batch is written */

NOTRACE static void text_serialise(void *arg)
{
	uint32_t a, b, c, d;

	(void)arg;
	cpuid(0, &a, &b, &c, &d);
}

static void stopped_run(void *arg)
{
	const struct stopped_batch *sb = arg;

	text_stopped = true;
	sb->sb_writes(sb->sb_arg);
	text_stopped = false;
	text_serialise(NULL);
}

bool text_patch_stopped(void (*writes)(void *arg), void *arg)
{
	struct stopped_batch sb = { writes, arg };

	return xcall_park(stopped_run, text_serialise, &sb, TEXT_PARK_TIMEOUT_NS);
}

bool text_write_stopped(void *addr, const void *bytes, size_t len)
{
	uint64_t va = (uint64_t)addr;

	if (!text_stopped || len == 0 || len > PAGE_SIZE || !is_text(va) || !is_text(va + len - 1))
		return false;
	spin_lock(&patch_lock);
	window_write(va, bytes, len);
	spin_unlock(&patch_lock);
	return true;
}

/* vm_wx_violations: pages of the kernel image that are writable and executable (self-test). */
int vm_wx_violations(void)
{
	int bad = 0;

	for (uint64_t va = (uint64_t)_kernel_start; va < (uint64_t)_kernel_end; va += PAGE_SIZE) {
		uint64_t e = vm_leaf(va);
		if ((e & PTE_W) && !(e & PTE_NX))
			bad++;
		if (is_text(va) && (e & PTE_W))
			bad++;
		if (!is_text(va) && !(e & PTE_NX))
			bad++;
	}
	return bad;
}
