/*
 * vmem.h - an address-space arena: hands out and takes back ranges of an
 * integer space (kernel/vmem.c explains the design).
 *
 * An arena owns spans (vmem_add) and cuts them into segments, each free or
 * allocated.  vmem_alloc returns the start of size bytes (a multiple of the
 * quantum) or 0; vmem_free gives back exactly what one vmem_alloc returned
 * and merges it with free neighbours.  The arena does no locking and never
 * touches the memory its ranges name: the caller serialises calls and maps
 * what it gets.  Segment tags come from vm_tag_page, a page of
 * VMEM_TAG_PAGE bytes each time the arena runs short (NULL: no more tags,
 * the call fails cleanly).
 */
#ifndef SONDE_VMEM_H
#define SONDE_VMEM_H

#include <stdbool.h>
#include <stdint.h>

#define VMEM_FREELISTS 64            /* list i: free segments of [2^i, 2^(i+1)) bytes */
#define VMEM_HASH      256           /* buckets of allocated segments */
#define VMEM_TAG_PAGE  4096

enum vmem_seg_type { VMEM_SPAN, VMEM_FREE, VMEM_ALLOC };

/* A boundary tag: one segment (or the start of a span). */
struct vmem_seg {
	uint64_t vs_start;
	uint64_t vs_size;
	enum vmem_seg_type vs_type;
	struct vmem_seg *vs_anext, *vs_aprev;   /* every tag, in address order (circular) */
	struct vmem_seg *vs_knext, *vs_kprev;   /* its free list, hash chain, or the spare tags */
};

struct vmem_stats {
	uint64_t vst_total;          /* bytes in spans */
	uint64_t vst_inuse;          /* bytes allocated */
	uint64_t vst_allocs;         /* vmem_alloc calls that succeeded */
	uint64_t vst_frees;
	uint64_t vst_failures;
	uint64_t vst_segs;           /* free and allocated segments */
	uint64_t vst_tag_pages;      /* pages taken for tags (never given back) */
};

struct vmem {
	const char *vm_name;
	uint64_t vm_quantum;
	struct vmem_seg vm_seg0;                 /* head of the address-ordered list */
	struct vmem_seg *vm_freelist[VMEM_FREELISTS];
	uint64_t vm_freemap;                     /* bit i: vm_freelist[i] is not empty */
	struct vmem_seg *vm_hash[VMEM_HASH];
	struct vmem_seg *vm_spare;               /* unused tags */
	int vm_nspare;
	void *(*vm_tag_page)(void);
	struct vmem_stats vm_stats;
};

/* vmem_init: an empty arena handing out multiples of quantum (a power of two). */
void vmem_init(struct vmem *vm, const char *name, uint64_t quantum, void *(*tag_page)(void));
/* vmem_add: give the arena [base, base + size) (quantum-aligned, not overlapping its spans; base > 0, 0 meaning failure). */
bool vmem_add(struct vmem *vm, uint64_t base, uint64_t size);
/* vmem_alloc: size bytes (rounded up to the quantum), instant fit; 0 when none fits. */
uint64_t vmem_alloc(struct vmem *vm, uint64_t size);
/* vmem_free: give back [addr, addr + size) as vmem_alloc returned it; false if it did not. */
bool vmem_free(struct vmem *vm, uint64_t addr, uint64_t size);
/* vmem_largest_free: the size of the largest free segment (a walk; for reports and tests). */
uint64_t vmem_largest_free(const struct vmem *vm);

#endif
