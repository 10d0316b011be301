/*
 * vmem.c - an address-space arena with boundary tags, after the vmem design
 * Bonwick and Adams describe (USENIX 2001).
 *
 * What it keeps.  Every span the arena was given (vmem_add) and every
 * segment cut from one is described by a boundary tag (struct vmem_seg) on
 * one circular list in address order; a span's tag comes just before its
 * first segment, so two segments merge only when they are neighbours inside
 * one span.  Free segments also sit on one of 64 power-of-two free lists
 * (list i holds sizes in [2^i, 2^(i+1))), with a bitmap of the lists that
 * are not empty; allocated segments sit in a hash table keyed by their
 * start, which is how vmem_free finds its tag in constant time.
 *
 * Allocating (instant fit).  For a size s the lowest non-empty list whose
 * every segment is at least s is list ceil(log2 s); one bit scan finds it,
 * and its first segment is taken, whatever its exact size.  Only when no
 * such list exists is list floor(log2 s) searched, since some of its
 * segments may still fit: an allocation fails only when no free segment is
 * large enough.  The segment is split when it is larger: the front is
 * allocated, the rest stays free.  Both operations are constant time but
 * for that last-resort search.
 *
 * Freeing.  The tag is found in the hash, checked against the size given,
 * marked free and merged with a free neighbour on either side (boundary
 * tags make both neighbours one pointer away), then put on its list.
 *
 * Tags.  A split needs one new tag, vmem_add two.  Spare tags are kept on a
 * list; when fewer than two are left the arena asks vm_tag_page for a page
 * and cuts it into tags before it changes anything, so a call that cannot
 * get tags fails without side effects.  Tags freed by merging go back on
 * the spare list; tag pages are never given back (their number follows the
 * peak count of segments).
 *
 * What it does not do: locking (the caller holds its own lock), touching the
 * memory its ranges name, constrained allocation (alignment, phase, address
 * bounds), importing from a parent arena, or quantum caches; kernel/kheap.c
 * puts its slab caches in front instead.
 *
 * Tests: tests/unit/kernel_vmem_test.c, tests/fuzz/vmem_fuzz.c; self-tests heap_sizes_and_stats,
 *        heap_va_reused
 */
#include "kernel/vmem.h"

#include <stddef.h>

static int vmem_log2(uint64_t x)               /* floor(log2 x), x > 0 */
{
	return 63 - __builtin_clzll(x);
}

static uint64_t vmem_round(const struct vmem *vm, uint64_t size)
{
	return (size + vm->vm_quantum - 1) & ~(vm->vm_quantum - 1);
}

/* ---- spare tags ---- */

static bool tag_reserve(struct vmem *vm, int n)
{
	while (vm->vm_nspare < n) {
		struct vmem_seg *page = vm->vm_tag_page != NULL ? vm->vm_tag_page() : NULL;
		if (page == NULL)
			return false;
		for (size_t i = 0; i < VMEM_TAG_PAGE / sizeof(*page); i++) {
			page[i].vs_knext = vm->vm_spare;
			vm->vm_spare = &page[i];
			vm->vm_nspare++;
		}
		vm->vm_stats.vst_tag_pages++;
	}
	return true;
}

static struct vmem_seg *tag_get(struct vmem *vm)
{
	struct vmem_seg *s = vm->vm_spare;

	vm->vm_spare = s->vs_knext;
	vm->vm_nspare--;
	return s;
}

static void tag_put(struct vmem *vm, struct vmem_seg *s)
{
	s->vs_knext = vm->vm_spare;
	vm->vm_spare = s;
	vm->vm_nspare++;
}

/* ---- the address-ordered list ---- */

static void seg_link_after(struct vmem_seg *prev, struct vmem_seg *s)
{
	s->vs_aprev = prev;
	s->vs_anext = prev->vs_anext;
	prev->vs_anext->vs_aprev = s;
	prev->vs_anext = s;
}

static void seg_unlink(struct vmem_seg *s)
{
	s->vs_aprev->vs_anext = s->vs_anext;
	s->vs_anext->vs_aprev = s->vs_aprev;
}

/* ---- free lists ---- */

static void freelist_insert(struct vmem *vm, struct vmem_seg *s)
{
	int i = vmem_log2(s->vs_size);

	s->vs_type = VMEM_FREE;
	s->vs_kprev = NULL;
	s->vs_knext = vm->vm_freelist[i];
	if (s->vs_knext != NULL)
		s->vs_knext->vs_kprev = s;
	vm->vm_freelist[i] = s;
	vm->vm_freemap |= 1UL << i;
}

static void freelist_remove(struct vmem *vm, struct vmem_seg *s)
{
	int i = vmem_log2(s->vs_size);

	if (s->vs_kprev != NULL)
		s->vs_kprev->vs_knext = s->vs_knext;
	else
		vm->vm_freelist[i] = s->vs_knext;
	if (s->vs_knext != NULL)
		s->vs_knext->vs_kprev = s->vs_kprev;
	if (vm->vm_freelist[i] == NULL)
		vm->vm_freemap &= ~(1UL << i);
}

/* ---- the hash of allocated segments ---- */

static struct vmem_seg **hash_bucket(struct vmem *vm, uint64_t addr)
{
	uint64_t h = (addr / vm->vm_quantum) * 0x9e3779b97f4a7c15UL;

	return &vm->vm_hash[h >> (64 - 8)];
}

_Static_assert(VMEM_HASH == 1 << 8, "hash_bucket takes the top 8 bits");

static void hash_insert(struct vmem *vm, struct vmem_seg *s)
{
	struct vmem_seg **b = hash_bucket(vm, s->vs_start);

	s->vs_type = VMEM_ALLOC;
	s->vs_knext = *b;
	*b = s;
}

/* hash_remove: unhook and return the allocated segment starting at addr, or NULL. */
static struct vmem_seg *hash_remove(struct vmem *vm, uint64_t addr)
{
	for (struct vmem_seg **p = hash_bucket(vm, addr); *p != NULL; p = &(*p)->vs_knext) {
		struct vmem_seg *s = *p;
		if (s->vs_start == addr) {
			*p = s->vs_knext;
			return s;
		}
	}
	return NULL;
}

/* ---- the interface ---- */

void vmem_init(struct vmem *vm, const char *name, uint64_t quantum, void *(*tag_page)(void))
{
	*vm = (struct vmem){ .vm_name = name, .vm_quantum = quantum, .vm_tag_page = tag_page };
	vm->vm_seg0.vs_anext = vm->vm_seg0.vs_aprev = &vm->vm_seg0;
	vm->vm_seg0.vs_type = VMEM_SPAN;
}

bool vmem_add(struct vmem *vm, uint64_t base, uint64_t size)
{
	if (base == 0 || size == 0 || ((base | size) & (vm->vm_quantum - 1)) != 0 || base + size < base ||
	    !tag_reserve(vm, 2))
		return false;
	struct vmem_seg *span = tag_get(vm), *s = tag_get(vm);
	struct vmem_seg *prev = vm->vm_seg0.vs_aprev;

	while (prev != &vm->vm_seg0 && prev->vs_start > base)
		prev = prev->vs_aprev;                  /* keep the list in address order */
	*span = (struct vmem_seg){ .vs_start = base, .vs_size = size, .vs_type = VMEM_SPAN };
	*s = (struct vmem_seg){ .vs_start = base, .vs_size = size };
	seg_link_after(prev, span);
	seg_link_after(span, s);
	freelist_insert(vm, s);
	vm->vm_stats.vst_total += size;
	vm->vm_stats.vst_segs++;
	return true;
}

/* fit_instant: a free segment of at least size bytes, by the rule above, or NULL. */
static struct vmem_seg *fit_instant(struct vmem *vm, uint64_t size)
{
	int lo = vmem_log2(size);
	int first = (size & (size - 1)) == 0 ? lo : lo + 1;
	uint64_t lists = first < VMEM_FREELISTS ? vm->vm_freemap & ~((1UL << first) - 1) : 0;

	if (lists != 0)
		return vm->vm_freelist[__builtin_ctzll(lists)];
	for (struct vmem_seg *s = vm->vm_freelist[lo]; s != NULL; s = s->vs_knext)
		if (s->vs_size >= size)
			return s;
	return NULL;
}

uint64_t vmem_alloc(struct vmem *vm, uint64_t size)
{
	size = vmem_round(vm, size);
	struct vmem_seg *s = size != 0 && tag_reserve(vm, 1) ? fit_instant(vm, size) : NULL;

	if (s == NULL) {
		vm->vm_stats.vst_failures++;
		return 0;
	}
	freelist_remove(vm, s);
	if (s->vs_size > size) {                         /* split: the rest stays free */
		struct vmem_seg *rest = tag_get(vm);
		*rest = (struct vmem_seg){ .vs_start = s->vs_start + size, .vs_size = s->vs_size - size };
		seg_link_after(s, rest);
		freelist_insert(vm, rest);
		s->vs_size = size;
		vm->vm_stats.vst_segs++;
	}
	hash_insert(vm, s);
	vm->vm_stats.vst_inuse += size;
	vm->vm_stats.vst_allocs++;
	return s->vs_start;
}

/* seg_absorb: fold next (just after s, on no free list) into s. */
static void seg_absorb(struct vmem *vm, struct vmem_seg *s, struct vmem_seg *next)
{
	s->vs_size += next->vs_size;
	seg_unlink(next);
	tag_put(vm, next);
	vm->vm_stats.vst_segs--;
}

bool vmem_free(struct vmem *vm, uint64_t addr, uint64_t size)
{
	size = vmem_round(vm, size);
	struct vmem_seg *s = hash_remove(vm, addr);

	if (s == NULL)
		return false;
	if (s->vs_size != size) {
		hash_insert(vm, s);                      /* not what was allocated: leave it */
		return false;
	}
	vm->vm_stats.vst_inuse -= size;
	vm->vm_stats.vst_frees++;
	struct vmem_seg *next = s->vs_anext, *prev = s->vs_aprev;
	if (next->vs_type == VMEM_FREE) {
		freelist_remove(vm, next);
		seg_absorb(vm, s, next);
	}
	if (prev->vs_type == VMEM_FREE) {
		freelist_remove(vm, prev);
		seg_absorb(vm, prev, s);
		s = prev;
	}
	freelist_insert(vm, s);
	return true;
}

uint64_t vmem_largest_free(const struct vmem *vm)
{
	uint64_t best = 0;

	for (const struct vmem_seg *s = vm->vm_seg0.vs_anext; s != &vm->vm_seg0; s = s->vs_anext)
		if (s->vs_type == VMEM_FREE && s->vs_size > best)
			best = s->vs_size;
	return best;
}
