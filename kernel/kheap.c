/*
 * kheap.c - the kernel heap: kmalloc and kfree.
 *
 * Small blocks (up to 2 KiB) come from size classes of powers of two, carved
 * from pages of the direct map; each such "slab" page starts with a header
 * naming its class.  Larger blocks get whole pages mapped contiguously in the
 * heap area (KHEAP_BASE), each allocation followed by an unmapped guard page,
 * so that running off the end of a thread stack faults at once.  Heap
 * addresses are never reused (the area is 1 TiB): another CPU may still hold
 * a TLB entry for a freed block, and with no reuse that entry can never alias
 * a new block, so freeing needs no TLB shootdown (which could not be done
 * safely here, with the heap lock held and interrupts off).  kfree finds
 * the header at the start of the block's page.  Freed small blocks carry a
 * marker word so a double free is caught; with kheap_poison_set(true) they are
 * also filled with KHEAP_POISON_BYTE first, so that a pointer read from a
 * freed block is non-canonical and faults at once (freed large blocks fault
 * anyway: they are unmapped).  A spinlock guards it all
 * (interrupt handlers may allocate); never called in probe context.
 *
 * Tests: tests/unit/kernel_kheap_test.c; self-tests heap_sizes_and_stats,
 *        wl_heap_balanced_after_churn
 */
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/sdt.h"

#define SLAB_MAGIC   0x534c4142u          /* "SLAB" */
#define LARGE_MAGIC  0x4c415247u          /* "LARG" */
#define FREE_MARK    0xf4eef4eef4eef4eeUL
#define HDR_SIZE     16
#define MIN_SHIFT    4                    /* 16 bytes */
#define MAX_SHIFT    11                   /* 2048 bytes */
#define NCLASSES     (MAX_SHIFT - MIN_SHIFT + 1)

struct page_hdr {
	uint32_t ph_magic;
	uint32_t ph_shift;                    /* slab: class shift */
	uint64_t ph_npages;                   /* large: pages mapped */
};

struct free_block {
	struct free_block *fb_next;
	uint64_t fb_mark;
};


static spinlock_t heap_lock = SPINLOCK_INIT("kheap");
static struct free_block *classes[NCLASSES];
static uint64_t va_next = KHEAP_BASE;
static struct kheap_stats stats;
static volatile bool poison;              /* kheap_poison_set */

void kheap_init(void)
{
	_Static_assert(sizeof(struct page_hdr) == HDR_SIZE, "page header size");
}

static int class_of(size_t size)
{
	int shift = MIN_SHIFT;

	while ((1UL << shift) < size)
		shift++;
	return shift;
}

static bool slab_grow(int shift)
{
	struct page_hdr *ph = page_alloc();
	size_t bsize = 1UL << shift;

	if (ph == NULL)
		return false;
	ph->ph_magic = SLAB_MAGIC;
	ph->ph_shift = shift;
	for (size_t off = ALIGN_UP(HDR_SIZE, MIN(bsize, 64)); off + bsize <= PAGE_SIZE; off += bsize) {
		struct free_block *b = (struct free_block *)((char *)ph + off);
		b->fb_mark = FREE_MARK;
		b->fb_next = classes[shift - MIN_SHIFT];
		classes[shift - MIN_SHIFT] = b;
	}
	stats.hs_pages++;
	return true;
}

static void *small_alloc(size_t size)
{
	int shift = class_of(size);
	struct free_block **head = &classes[shift - MIN_SHIFT];

	if (*head == NULL && !slab_grow(shift))
		return NULL;
	struct free_block *b = *head;
	*head = b->fb_next;
	b->fb_mark = 0;
	stats.hs_inuse += 1UL << shift;
	return b;
}

/* va_take: npages of fresh heap address space (never reused: see above). */
static uint64_t va_take(uint64_t npages)
{
	if (va_next + npages * PAGE_SIZE > KHEAP_BASE + KHEAP_SIZE)
		return 0;
	uint64_t va = va_next;
	va_next += npages * PAGE_SIZE;
	stats.hs_va_used = va_next - KHEAP_BASE;
	return va;
}

static void large_unmap(uint64_t va, uint64_t npages)
{
	for (uint64_t i = 0; i < npages; i++) {
		uint64_t pa = virt_to_phys((void *)(va + i * PAGE_SIZE));
		vm_unmap(va + i * PAGE_SIZE);
		pmem_give(pa);
	}
}

static void *large_alloc(size_t size)
{
	uint64_t npages = ALIGN_UP(size + HDR_SIZE, PAGE_SIZE) / PAGE_SIZE;
	uint64_t va = va_take(npages + 1), i;

	if (va == 0)
		return NULL;
	for (i = 0; i < npages; i++) {
		uint64_t pa = pmem_take();
		if (pa == 0 || !vm_map(va + i * PAGE_SIZE, pa, VM_WRITE)) {
			if (pa != 0)
				pmem_give(pa);
			large_unmap(va, i);
			return NULL;
		}
	}
	struct page_hdr *ph = (struct page_hdr *)va;
	ph->ph_magic = LARGE_MAGIC;
	ph->ph_npages = npages;
	stats.hs_inuse += npages * PAGE_SIZE;
	stats.hs_pages += npages;
	return (char *)va + HDR_SIZE;
}

void *kmalloc(size_t size)
{
	void *p;

	if (size == 0)
		size = 1;
	if (size > KHEAP_SIZE / 2)
		return NULL;
	spin_lock(&heap_lock);
	p = size <= (1UL << MAX_SHIFT) ? small_alloc(size) : large_alloc(size);
	if (p != NULL)
		stats.hs_allocs++;
	else
		stats.hs_failures++;
	spin_unlock(&heap_lock);
	DTRACE_PROBE2(kmem__alloc, p, size);
	return p;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p != NULL)
		memset(p, 0, size);
	return p;
}

char *kstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = kmalloc(n);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}

static void large_free(struct page_hdr *ph)
{
	uint64_t npages = ph->ph_npages;

	ph->ph_magic = 0;
	stats.hs_inuse -= npages * PAGE_SIZE;
	stats.hs_pages -= npages;
	large_unmap((uint64_t)ph, npages);
}

void kfree(void *p)
{
	if (p == NULL)
		return;
	struct page_hdr *ph = (struct page_hdr *)ALIGN_DOWN((uint64_t)p, PAGE_SIZE);
	size_t size;
	spin_lock(&heap_lock);
	if (ph->ph_magic == LARGE_MAGIC && (char *)p == (char *)ph + HDR_SIZE) {
		size = ph->ph_npages * PAGE_SIZE;
		large_free(ph);
	} else if (ph->ph_magic == SLAB_MAGIC) {
		struct free_block *b = p;
		if (b->fb_mark == FREE_MARK)
			panic("kfree: double free of %p", p);
		size = 1UL << ph->ph_shift;
		if (poison)
			memset(p, KHEAP_POISON_BYTE, size);
		b->fb_mark = FREE_MARK;
		b->fb_next = classes[ph->ph_shift - MIN_SHIFT];
		classes[ph->ph_shift - MIN_SHIFT] = b;
		stats.hs_inuse -= size;
	} else {
		panic("kfree: %p was not allocated by kmalloc", p);
	}
	stats.hs_frees++;
	/* Fire before the unlock: once it is released another CPU may get the
	 * same block from kmalloc, and its kmem-alloc must come after our kmem-free. */
	DTRACE_PROBE2(kmem__free, p, size);
	spin_unlock(&heap_lock);
}

void kheap_stats(struct kheap_stats *st)
{
	spin_lock(&heap_lock);
	*st = stats;
	spin_unlock(&heap_lock);
}

void kheap_poison_set(bool on)
{
	poison = on;
}
