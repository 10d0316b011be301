/*
 * mem.h - physical pages, the direct map, the kernel heap and text patching.
 *
 * All physical memory is mapped at DMAP_BASE (the direct map), so a physical
 * address p is reachable at DMAP_BASE + p.  Pages come from a free list built
 * from the boot memory map.  The heap hands out small blocks from slab
 * caches and large ones as whole pages, at addresses an arena (kernel/vmem.h)
 * hands out and takes back.  The kernel image is mapped W^X:
 * text read+execute, rodata read-only, data and bss read+write, never
 * executable.  Text is changed only by text_patch(), through a temporary
 * writable alias of the same physical page.
 */
#ifndef SONDE_MEM_H
#define SONDE_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"        /* a machine may define its own layout (ARCH_MEM_LAYOUT) */

#ifndef ARCH_MEM_LAYOUT
#define PAGE_SIZE        4096UL
#define KERNEL_VMA       0xffffffff80000000UL
#define DMAP_BASE        0xffff800000000000UL
#endif

static inline void *phys_to_virt(uint64_t pa) { return (void *)(pa + DMAP_BASE); }
uint64_t virt_to_phys(const void *va);            /* direct map or kernel image */

void pmem_init(void);                             /* boot: free list from the memory map */
void vm_init(void);                               /* boot: final page tables, W^X */
void kheap_init(void);                            /* boot */

/* page_alloc: one zeroed 4 KiB page (direct-map address) or NULL.  Any context but probe context. */
void *page_alloc(void);
void page_free(void *va);

/*
 * Reference counts of pages several address spaces map (kernel/page_ref.c,
 * copy-on-write fork): page_ref_enabled, unless booted with nocow or the
 * table could not be made; page_ref_init makes the table (once);
 * page_ref_put drops one reference and says whether it was the last (the
 * caller frees the page).  Thread context.
 */
bool page_ref_enabled(void);
void page_ref_init(void);
void page_ref_get(void *page);
bool page_ref_shared(void *page);
bool page_ref_put(void *page);

struct pmem_stats {
	uint64_t ps_total;           /* usable RAM in bytes */
	uint64_t ps_free;            /* bytes on the free list */
	uint64_t ps_kernel;          /* bytes of the kernel image */
};
void pmem_stats(struct pmem_stats *st);

/* kmalloc/kfree: the kernel heap.  Thread or interrupt context; never in probe context. */
void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(void *p);
char *kstrdup(const char *s);         /* a heap copy of s, or NULL */

struct kheap_stats {
	uint64_t hs_allocs;          /* kmalloc calls that succeeded */
	uint64_t hs_frees;
	uint64_t hs_inuse;           /* bytes currently allocated (rounded to class size or pages) */
	uint64_t hs_pages;           /* pages held by the heap, all of the kinds below (kheap_stats) */
	uint64_t hs_failures;        /* kmalloc calls that returned NULL */
	uint64_t hs_va_used;         /* heap address space allocated from the arena now (guards and quarantine included) */
	uint64_t hs_slab_pages;      /* pages of slab caches */
	uint64_t hs_large_pages;     /* pages mapped for large blocks */
	uint64_t hs_quarantine;      /* address space freed, waiting for every CPU's TLB flush */
	uint64_t hs_quarantine_pages; /* pages waiting with it: records and unhooked leaf tables */
	uint64_t hs_tables;          /* page tables mapping the heap area (kheap_stats) */
	uint64_t hs_tag_pages;       /* pages of the arena's boundary tags (kept) */
	uint64_t hs_arena_segs;      /* the arena's segments, free and allocated */
	uint64_t hs_arena_total;     /* heap address space (kheap_stats) */
	uint64_t hs_arena_largest;   /* its largest free segment (kheap_stats) */
};
/*
 * kheap_totals: the heap's counters as they run (a D program reads them:
 * `kheap_totals.hs_inuse); kheap_stats: a consistent copy, the fields
 * marked (kheap_stats) filled in.  Any context but probe context.
 */
extern struct kheap_stats kheap_totals;
void kheap_stats(struct kheap_stats *st);

/* kheap_cache_stats: slab cache i (0 = 16 bytes, doubling); false past the last.  Not in probe context. */
struct kheap_cache_stats {
	uint64_t kcs_size;           /* object size */
	uint64_t kcs_slabs;          /* pages held */
	uint64_t kcs_inuse;          /* objects handed out */
	uint64_t kcs_capacity;       /* objects the slabs hold */
};
bool kheap_cache_stats(int i, struct kheap_cache_stats *cs);

/*
 * kheap_tick: the scheduler's tick on CPU cpu (interrupt context): drop
 * this CPU's kernel TLB entries when a TLB epoch asks for it and give back
 * the freed address ranges every CPU has flushed (kernel/kheap.c).
 */
void kheap_tick(int cpu);

/*
 * kheap_poison_set: while on, kfree fills each freed small block with
 * KHEAP_POISON_BYTE, so a use after free reads pointers that fault (a
 * debugging aid for self-tests).  Any context.
 */
#define KHEAP_POISON_BYTE 0xde
void kheap_poison_set(bool on);

/*
 * text_patch: write len bytes over kernel text at addr through a temporary
 * writable alias.  Returns false if the range is not kernel text.  Another
 * CPU may go on running the old bytes until the next text_patch_sync(): a
 * one-byte patch (a trap planted over an instruction's first byte, or that
 * byte put back) is safe meanwhile, since either byte is handled; a longer
 * one must not be reachable by another CPU until then.
 * text_patch_sync: after it returns, every CPU runs the bytes written by
 * every text_patch that returned before it was called (a cross-call to each
 * CPU, then the logged ranges written once more; see arch/x86_64/vm.c).
 * text_patch syncs by itself every 256 patches.
 * Context (both): thread context, or interrupts off holding no spinlock that
 * another CPU may spin on with interrupts off (they may cross-call).
 */
bool text_patch(void *addr, const void *bytes, size_t len);
void text_patch_sync(void);

/*
 * text_patch_stopped: call writes(arg) with every other CPU stopped
 * (kernel/xcall.h's xcall_park); inside it, text_write_stopped writes text
 * as text_patch does, but with nothing to synchronise after: when
 * text_patch_stopped returns true every CPU runs the new bytes, whatever
 * order they were written in.  It returns false, having called nothing, if
 * not every CPU could be stopped within a few milliseconds: the caller
 * then patches the ordinary way.  writes runs with interrupts off and must
 * not cross-call, sleep or call text_patch.  Context: as text_patch.
 */
bool text_patch_stopped(void (*writes)(void *arg), void *arg);
bool text_write_stopped(void *addr, const void *bytes, size_t len);

/*
 * Physical pages without the direct map, for the page-table code during boot:
 * pmem_take returns a free page's physical address (0 if none; low memory
 * first), pmem_give puts one back.
 */
uint64_t pmem_take(void);
void pmem_give(uint64_t pa);
bool pmem_is_ram(uint64_t pa);                    /* in a RAM region of the memory map */
uint64_t pmem_ram_end(void);                      /* end of the highest RAM region */

/*
 * vm_map/vm_unmap: map or unmap one 4 KiB page at va (kernel heap area).
 * prot is VM_WRITE or 0; mappings are never executable.  vm_map returns
 * false when a page table cannot be allocated.  Thread context.
 */
#define VM_WRITE 1
#ifndef ARCH_MEM_LAYOUT
#define KHEAP_BASE       0xffffc00000000000UL
#define KHEAP_SIZE       (1UL << 40)
#endif
bool vm_map(uint64_t va, uint64_t pa, int prot);
void vm_unmap(uint64_t va);

/*
 * vm_leaf_release: if the leaf page table covering va (VM_LEAF_SPAN bytes of
 * the heap area, aligned) maps nothing, unhook it from its directory and
 * return its physical address: the caller gives it back once no CPU can
 * still walk it (after a TLB epoch, kernel/kheap.c).  0 when the table maps
 * a page or there is none.  Only the heap calls vm_map, vm_unmap and this,
 * under its lock.
 */
#ifndef ARCH_MEM_LAYOUT
#define VM_LEAF_SPAN     (2UL << 20)
#endif
uint64_t vm_leaf_release(uint64_t va);
/* vm_heap_tables: page-table pages that map the heap area now (directories included). */
uint64_t vm_heap_tables(void);

/* vm_map_mmio: map device registers (uncached, no-execute); returns their address. */
volatile void *vm_map_mmio(uint64_t phys, size_t size);

/*
 * mem_probe: may the kernel read len bytes at va without faulting?  (mapped,
 * canonical, not device memory).  Any context.
 */
bool mem_probe(uint64_t va, size_t len);

#endif
