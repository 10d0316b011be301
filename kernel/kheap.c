/*
 * kheap.c - the kernel heap: kmalloc and kfree.
 *
 * Two layers, one lock.  Small blocks (up to 2 KiB) come from slab caches,
 * one per power-of-two size; larger blocks get whole pages mapped in the
 * heap area, whose addresses an arena (kernel/vmem.c) hands out and takes
 * back.  A spinlock guards it all: interrupt handlers allocate too, so
 * nothing here sleeps or cross-calls.  Never called in probe context.
 *
 * Slab caches.  A slab is one page of the direct map: a header (struct
 * slab: its cache, how many objects are out, its free list) and objects of
 * the cache's size after it.  A cache keeps the slabs that have a free
 * object on a list; kmalloc takes from the first, kfree finds the slab from
 * the page its pointer is in.  A slab whose last object comes back is given
 * back to the page allocator, except one empty slab per cache, kept so that
 * a loop of kmalloc and kfree does not take and give a page each time.
 * Freed objects carry a marker word so a double free is caught; with
 * kheap_poison_set(true) they are also filled with KHEAP_POISON_BYTE
 * first, so that a pointer read from a freed block is non-canonical and
 * faults at once.
 *
 * Large blocks.  npages pages and one unmapped guard page after them (so
 * running off the end of a thread stack faults at once) take npages + 1
 * pages of the arena; a header at the start of the first page says how
 * many.  Freeing unmaps the pages and gives them back at once: no CPU may
 * touch them any more.  The address range cannot go back to the arena at
 * once, though: another CPU may still hold TLB entries for it, and a block
 * later allocated there would then be read, on that CPU, through the old
 * pages.  Flushing the other CPUs here is not possible (a cross-call under
 * a spinlock with interrupts off, maybe in an interrupt handler, can
 * deadlock), so freed ranges wait in a quarantine for a TLB epoch:
 *   - q_open collects what kfree frees;
 *   - any CPU's scheduler tick (kheap_tick) moves q_open to q_wait and
 *     opens epoch E = ++tlb_epoch;
 *   - each CPU, at its next tick, reads E, drops its TLB entries for the
 *     kernel (arch_tlb_flush_kernel) and then records tlb_seen[cpu] = E;
 *   - once every online CPU has seen E, q_wait's ranges go back to the
 *     arena and its page tables to the page allocator.
 * So a range comes back within two or three ticks (10 ms each) of its
 * kfree, from interrupt context, with no cross-call.  With one CPU the
 * unmapping's own invalidation is all there is to do, and a range goes back
 * to the arena at once.  Each quarantined block costs nothing extra: its
 * first physical page is kept, until the epoch, as the record (struct qnode)
 * of what to give back.
 *
 * Page tables.  When freeing unmaps the last page a leaf page table maps
 * (VM_LEAF_SPAN bytes of heap addresses each), vm_leaf_release unhooks the
 * table; it rides in the quarantine with its range, since another CPU may
 * still walk it through its cached copy of the directory entry (a walk that
 * finds nothing there faults, and the fault handler retries when the
 * tables say the address is mapped: arch/x86_64/trap.c).  Directories above
 * the leaf tables stay.
 *
 * Accounting: kheap_totals, a kernel global D reads through CTF
 * (`kheap_totals.hs_inuse), kheap_stats for a consistent copy, and
 * kheap_cache_stats per slab cache (the `mem` command prints them all).
 *
 * Tests: tests/unit/kernel_kheap_test.c, tests/unit/kernel_vmem_test.c;
 *        self-tests heap_sizes_and_stats, heap_va_reused, heap_slabs_given_back,
 *        wl_heap_balanced_after_churn; tests/e2e/test_mem.py (the short
 *        soak: 300 dtrace runs give back every page); make soak
 */
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/sdt.h"
#include "kernel/vmem.h"

#define SLAB_MAGIC   0x534c4142u          /* "SLAB" */
#define LARGE_MAGIC  0x4c415247u          /* "LARG" */
#define FREE_MARK    0xf4eef4eef4eef4eeUL
#define HDR_SIZE     16                   /* a large block's header */
#define MIN_SHIFT    4                    /* 16 bytes */
#define MAX_SHIFT    11                   /* 2048 bytes */
#define NCLASSES     (MAX_SHIFT - MIN_SHIFT + 1)

struct large_hdr {
	uint32_t lh_magic;
	uint32_t lh_pad;
	uint64_t lh_npages;                   /* pages mapped (the guard page not counted) */
};

struct free_block {
	struct free_block *fb_next;
	uint64_t fb_mark;
};

struct slab {
	uint32_t sl_magic;
	uint16_t sl_class;                    /* index in caches[] */
	uint16_t sl_inuse;                    /* objects handed out */
	struct free_block *sl_free;
	struct slab *sl_next, *sl_prev;       /* the cache's list of slabs with a free object */
};

struct kmem_cache {
	uint32_t kc_size;
	uint16_t kc_perslab;                  /* objects a slab holds */
	uint16_t kc_empty;                    /* empty slabs kept (0 or 1) */
	struct slab *kc_partial;
	uint64_t kc_slabs;
	uint64_t kc_inuse;                    /* objects handed out */
};

/* A quarantined block's record, in its first physical page (see above). */
struct qnode {
	struct qnode *qn_next;
	uint64_t qn_va, qn_len;               /* the range, guard page included */
	uint64_t qn_tables;                   /* unhooked leaf tables, linked through word 0 */
};

static spinlock_t heap_lock = SPINLOCK_INIT("kheap");
static struct kmem_cache caches[NCLASSES];
static struct vmem heap_arena;
static bool arena_ready;
static struct qnode *q_open, *q_wait;
static uint64_t q_wait_epoch;
static volatile uint64_t tlb_epoch;
static volatile uint64_t tlb_seen[MAX_CPUS];
struct kheap_stats kheap_totals;          /* read by D as `kheap_totals */
static volatile bool poison;              /* kheap_poison_set */

static uint64_t slab_offset(int cls)      /* where a slab's first object starts */
{
	return ALIGN_UP(sizeof(struct slab), MIN(1UL << (cls + MIN_SHIFT), 64));
}

void kheap_init(void)
{
	for (int i = 0; i < NCLASSES; i++) {
		uint64_t size = 1UL << (i + MIN_SHIFT);
		caches[i] = (struct kmem_cache){ .kc_size = (uint32_t)size,
		                                 .kc_perslab = (uint16_t)((PAGE_SIZE - slab_offset(i)) / size) };
	}
}

/* ---- slab caches ---- */

static int class_of(size_t size)
{
	int shift = MIN_SHIFT;

	while ((1UL << shift) < size)
		shift++;
	return shift - MIN_SHIFT;
}

static void slab_list_add(struct kmem_cache *kc, struct slab *sl)
{
	sl->sl_prev = NULL;
	sl->sl_next = kc->kc_partial;
	if (sl->sl_next != NULL)
		sl->sl_next->sl_prev = sl;
	kc->kc_partial = sl;
}

static void slab_list_remove(struct kmem_cache *kc, struct slab *sl)
{
	if (sl->sl_prev != NULL)
		sl->sl_prev->sl_next = sl->sl_next;
	else
		kc->kc_partial = sl->sl_next;
	if (sl->sl_next != NULL)
		sl->sl_next->sl_prev = sl->sl_prev;
}

static bool slab_grow(int cls)
{
	struct kmem_cache *kc = &caches[cls];
	struct slab *sl = page_alloc();

	if (sl == NULL)
		return false;
	*sl = (struct slab){ .sl_magic = SLAB_MAGIC, .sl_class = (uint16_t)cls };
	for (uint64_t off = slab_offset(cls), i = 0; i < kc->kc_perslab; i++, off += kc->kc_size) {
		struct free_block *b = (struct free_block *)((char *)sl + off);
		*b = (struct free_block){ .fb_next = sl->sl_free, .fb_mark = FREE_MARK };
		sl->sl_free = b;
	}
	slab_list_add(kc, sl);
	kc->kc_slabs++;
	kc->kc_empty++;
	kheap_totals.hs_slab_pages++;
	return true;
}

static void *slab_alloc(size_t size)
{
	int cls = class_of(size);
	struct kmem_cache *kc = &caches[cls];

	if (kc->kc_partial == NULL && !slab_grow(cls))
		return NULL;
	struct slab *sl = kc->kc_partial;
	struct free_block *b = sl->sl_free;
	sl->sl_free = b->fb_next;
	if (sl->sl_inuse++ == 0)
		kc->kc_empty--;
	if (sl->sl_free == NULL)
		slab_list_remove(kc, sl);            /* full */
	b->fb_mark = 0;
	kc->kc_inuse++;
	kheap_totals.hs_inuse += kc->kc_size;
	return b;
}

/* slab_free: p back to its slab; the slab goes back to the page allocator when empty (see above). */
static size_t slab_free(struct slab *sl, void *p)
{
	struct kmem_cache *kc = &caches[sl->sl_class];
	struct free_block *b = p;

	if (b->fb_mark == FREE_MARK)
		panic("kfree: double free of %p", p);
	if (poison)
		memset(p, KHEAP_POISON_BYTE, kc->kc_size);
	if (sl->sl_free == NULL)
		slab_list_add(kc, sl);               /* was full */
	*b = (struct free_block){ .fb_next = sl->sl_free, .fb_mark = FREE_MARK };
	sl->sl_free = b;
	kc->kc_inuse--;
	kheap_totals.hs_inuse -= kc->kc_size;
	if (--sl->sl_inuse == 0 && kc->kc_empty++ > 0) {
		slab_list_remove(kc, sl);
		sl->sl_magic = 0;
		kc->kc_slabs--;
		kc->kc_empty--;
		kheap_totals.hs_slab_pages--;
		page_free(sl);
	}
	return kc->kc_size;
}

/* ---- the arena and its quarantine ---- */

static void *arena_tag_page(void)
{
	void *p = page_alloc();

	if (p != NULL)
		kheap_totals.hs_tag_pages++;
	return p;
}

static bool arena_setup(void)
{
	if (!arena_ready) {
		vmem_init(&heap_arena, "kheap", PAGE_SIZE, arena_tag_page);
		arena_ready = vmem_add(&heap_arena, KHEAP_BASE, KHEAP_SIZE);
	}
	return arena_ready;
}

static void arena_stats_update(void)
{
	kheap_totals.hs_va_used = heap_arena.vm_stats.vst_inuse;
	kheap_totals.hs_arena_segs = heap_arena.vm_stats.vst_segs;
}

/* qnode_release: a quarantined block's range to the arena, its tables and record to the page allocator. */
static void qnode_release(struct qnode *q)
{
	uint64_t t = q->qn_tables, len = q->qn_len;

	while (t != 0) {
		uint64_t next = *(uint64_t *)phys_to_virt(t);
		pmem_give(t);
		kheap_totals.hs_quarantine_pages--;
		t = next;
	}
	if (!vmem_free(&heap_arena, q->qn_va, len))
		panic("kheap: quarantined range %lx+%lx unknown to the arena", q->qn_va, len);
	kheap_totals.hs_quarantine -= len;
	kheap_totals.hs_quarantine_pages--;
	pmem_give(virt_to_phys(q));
}

static bool epoch_seen_by_all(uint64_t e)
{
	for (int i = 0; i < ncpus; i++)
		if (cpus[i].cpu_online && __atomic_load_n(&tlb_seen[i], __ATOMIC_ACQUIRE) < e)
			return false;
	return true;
}

/* quarantine_advance: release q_wait if its epoch is over, then start the next.  heap_lock held. */
static void quarantine_advance(void)
{
	if (q_wait != NULL && epoch_seen_by_all(q_wait_epoch)) {
		while (q_wait != NULL) {
			struct qnode *q = q_wait;
			q_wait = q->qn_next;
			qnode_release(q);
		}
	}
	if (q_wait == NULL && q_open != NULL) {
		q_wait = q_open;
		q_open = NULL;
		q_wait_epoch = __atomic_add_fetch(&tlb_epoch, 1, __ATOMIC_SEQ_CST);
	}
	arena_stats_update();
}

void kheap_tick(int cpu)
{
	uint64_t e = __atomic_load_n(&tlb_epoch, __ATOMIC_SEQ_CST);

	if (tlb_seen[cpu] != e) {
		arch_tlb_flush_kernel();
		__atomic_store_n(&tlb_seen[cpu], e, __ATOMIC_RELEASE);
	}
	if ((__atomic_load_n(&q_open, __ATOMIC_RELAXED) == NULL &&
	     __atomic_load_n(&q_wait, __ATOMIC_RELAXED) == NULL) ||
	    __atomic_load_n(&heap_lock.sl_locked, __ATOMIC_RELAXED) != 0)
		return;                 /* nothing waits, or the heap is busy: a later tick will do */
	spin_lock(&heap_lock);
	quarantine_advance();
	spin_unlock(&heap_lock);
}

/* ---- large blocks ---- */

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
	uint64_t npages = ALIGN_UP(size + HDR_SIZE, PAGE_SIZE) / PAGE_SIZE, i;
	uint64_t va = arena_setup() ? vmem_alloc(&heap_arena, (npages + 1) * PAGE_SIZE) : 0;

	if (va == 0)
		return NULL;
	for (i = 0; i < npages; i++) {
		uint64_t pa = pmem_take();
		if (pa == 0 || !vm_map(va + i * PAGE_SIZE, pa, VM_WRITE)) {
			if (pa != 0)
				pmem_give(pa);
			large_unmap(va, i);
			vmem_free(&heap_arena, va, (npages + 1) * PAGE_SIZE);   /* never mapped past i: no TLB entry */
			return NULL;
		}
	}
	struct large_hdr *lh = (struct large_hdr *)va;
	*lh = (struct large_hdr){ .lh_magic = LARGE_MAGIC, .lh_npages = npages };
	kheap_totals.hs_inuse += npages * PAGE_SIZE;
	kheap_totals.hs_large_pages += npages;
	arena_stats_update();
	return (char *)va + HDR_SIZE;
}

/* leaf_tables_release: unhook the leaf tables [va, va + len) leaves empty, onto q's list. */
static void leaf_tables_release(struct qnode *q, uint64_t va, uint64_t len)
{
	for (uint64_t t = ALIGN_DOWN(va, VM_LEAF_SPAN); t < va + len; t += VM_LEAF_SPAN) {
		uint64_t pa = vm_leaf_release(t);
		if (pa == 0)
			continue;
		*(uint64_t *)phys_to_virt(pa) = q->qn_tables;   /* page-aligned: reads as "not present" */
		q->qn_tables = pa;
		kheap_totals.hs_quarantine_pages++;
	}
}

static size_t large_free(struct large_hdr *lh)
{
	uint64_t va = (uint64_t)lh, npages = lh->lh_npages, len = (npages + 1) * PAGE_SIZE;
	struct qnode *q = phys_to_virt(virt_to_phys(lh));      /* the first page, kept as the record */

	lh->lh_magic = 0;
	kheap_totals.hs_inuse -= npages * PAGE_SIZE;
	kheap_totals.hs_large_pages -= npages;
	vm_unmap(va);
	large_unmap(va + PAGE_SIZE, npages - 1);
	*q = (struct qnode){ .qn_va = va, .qn_len = len };
	leaf_tables_release(q, va, len);
	kheap_totals.hs_quarantine += len;
	kheap_totals.hs_quarantine_pages++;
	if (ncpus <= 1) {
		qnode_release(q);                    /* this CPU's invalidation was all */
	} else {
		q->qn_next = q_open;
		q_open = q;
	}
	arena_stats_update();
	return npages * PAGE_SIZE;
}

/* ---- the interface ---- */

void *kmalloc(size_t size)
{
	void *p;

	if (size == 0)
		size = 1;
	if (size > KHEAP_SIZE / 2)
		return NULL;
	spin_lock(&heap_lock);
	p = size <= (1UL << MAX_SHIFT) ? slab_alloc(size) : large_alloc(size);
	if (p != NULL)
		kheap_totals.hs_allocs++;
	else
		kheap_totals.hs_failures++;
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

void kfree(void *p)
{
	if (p == NULL)
		return;
	void *page = (void *)ALIGN_DOWN((uint64_t)p, PAGE_SIZE);
	struct large_hdr *lh = page;
	struct slab *sl = page;
	size_t size;
	spin_lock(&heap_lock);
	if (lh->lh_magic == LARGE_MAGIC && (char *)p == (char *)lh + HDR_SIZE)
		size = large_free(lh);
	else if (sl->sl_magic == SLAB_MAGIC && sl->sl_class < NCLASSES)
		size = slab_free(sl, p);
	else
		panic("kfree: %p was not allocated by kmalloc", p);
	kheap_totals.hs_frees++;
	/* Fire before the unlock: once it is released another CPU may get the
	 * same block from kmalloc, and its kmem-alloc must come after our kmem-free. */
	DTRACE_PROBE2(kmem__free, p, size);
	spin_unlock(&heap_lock);
}

void kheap_stats(struct kheap_stats *st)
{
	spin_lock(&heap_lock);
	*st = kheap_totals;
	st->hs_tables = vm_heap_tables();
	st->hs_pages = st->hs_slab_pages + st->hs_large_pages + st->hs_tag_pages +
	               st->hs_quarantine_pages + st->hs_tables;
	st->hs_arena_total = arena_ready ? heap_arena.vm_stats.vst_total : KHEAP_SIZE;
	st->hs_arena_largest = arena_ready ? vmem_largest_free(&heap_arena) : KHEAP_SIZE;
	spin_unlock(&heap_lock);
}

bool kheap_cache_stats(int i, struct kheap_cache_stats *cs)
{
	if (i < 0 || i >= NCLASSES)
		return false;
	spin_lock(&heap_lock);
	*cs = (struct kheap_cache_stats){ .kcs_size = caches[i].kc_size, .kcs_slabs = caches[i].kc_slabs,
	                                  .kcs_inuse = caches[i].kc_inuse,
	                                  .kcs_capacity = caches[i].kc_slabs * caches[i].kc_perslab };
	spin_unlock(&heap_lock);
	return true;
}

void kheap_poison_set(bool on)
{
	poison = on;
}
