/*
 * proc_exec.c - loading a program into a fresh address space.
 *
 * The layout of a process (addresses from arch.h):
 *
 *   ARCH_USER_TOP                 (unmapped)
 *   ARCH_USER_TOP - PAGE_SIZE     top of the stack: argv strings, then
 *                                 argc, argv[], NULL, envp (empty), NULL at sp
 *   ... PROC_STACK_PAGES below    bottom of the stack (below it: unmapped, so
 *                                 an overflow faults)
 *   ...
 *   PROC_MMAP_BASE and up         mmap without MAP_FIXED: each mapping above
 *                                 the last, one unmapped page between them
 *   ...
 *   PROC_BRK_MAX above the break base   the most the heap (brk) may grow
 *                                 (brk and mmap together map at most
 *                                 PROC_MEM_PAGES pages)
 *   the break base                first page above the last segment
 *   the segments                  as the ELF program headers say (elf.c
 *                                 checked them): text R+X, rodata R, data and
 *                                 bss R+W, never W+X
 *   ARCH_USER_BASE                (below it nothing: NULL faults)
 *
 * Every page is a fresh zeroed page of page_alloc() that belongs to the
 * address space; the loader writes into it through the kernel's direct map
 * (arch_as_page), so the space need not be loaded while it is built.
 *
 * Tests: tests/e2e/test_proc.py; tests/unit/kernel_elf_test.c
 */
#include "arch/arch.h"
#include "kernel/elf.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/proc.h"

#define PROC_STACK_TOP    (ARCH_USER_TOP - PAGE_SIZE)
#define PROC_STACK_BOTTOM (PROC_STACK_TOP - PROC_STACK_PAGES * PAGE_SIZE)
#define PROC_BRK_MAX      (256UL << 20)
#define PROC_MMAP_BASE    (ARCH_USER_TOP / 8)        /* 0x100000000000 on x86_64 */
#define PROC_MMAP_MAX     (PROC_MEM_PAGES * PAGE_SIZE)  /* bytes in one call */
#define PROT_WRITE        2
#define PROT_EXEC         4
#define MAP_FIXED         0x10
#define MAP_ANONYMOUS     0x20

/* map_zero_pages: map fresh zeroed pages over [lo, hi) (page-aligned) with prot; 0 or -ENOMEM. */
static int map_zero_pages(struct arch_as *as, uint64_t lo, uint64_t hi, int prot)
{
	for (uint64_t va = lo; va < hi; va += PAGE_SIZE) {
		void *page = page_alloc();
		if (page == NULL)
			return -ENOMEM;
		if (!arch_as_map(as, va, page, prot)) {
			page_free(page);
			return -ENOMEM;
		}
	}
	return 0;
}

/* as_write: copy len bytes to user address va of as (already mapped), page by page. */
static void as_write(struct arch_as *as, uint64_t va, const void *src, size_t len)
{
	const unsigned char *s = src;

	while (len > 0) {
		size_t off = va & (PAGE_SIZE - 1), n = MIN(len, PAGE_SIZE - off);
		unsigned char *page = arch_as_page(as, va);
		KASSERT(page != NULL);
		memcpy(page + off, s, n);
		va += n;
		s += n;
		len -= n;
	}
}

static int seg_prot(const struct elf_seg *s)
{
	return (s->es_flags & ELF_PF_W ? ARCH_PROT_WRITE : 0) |
	       (s->es_flags & ELF_PF_X ? ARCH_PROT_EXEC : 0);
}

static int load_segment(struct arch_as *as, const struct kfile *kf, const struct elf_seg *s)
{
	uint64_t lo = ALIGN_DOWN(s->es_vaddr, PAGE_SIZE);
	uint64_t hi = ALIGN_UP(s->es_vaddr + s->es_memsz, PAGE_SIZE);
	int r = map_zero_pages(as, lo, hi, seg_prot(s));

	if (r == 0)
		as_write(as, s->es_vaddr, kf->kf_data + s->es_offset, s->es_filesz);
	return r;
}

/*
 * stack_build: argv's strings at the top of the stack, then (16-byte
 * aligned, as the ABI wants at entry) argc, the argv pointers, NULL and
 * an empty environment; returns the stack pointer, or 0 if too big.
 */
static uint64_t stack_build(struct arch_as *as, int argc, char *const argv[])
{
	uint64_t ptrs[PROC_ARGC_MAX + 4], sp = PROC_STACK_TOP, bytes = 0;
	int n = 0;

	if (argc < 0 || argc > PROC_ARGC_MAX)
		return 0;
	for (int i = 0; i < argc; i++)
		bytes += strlen(argv[i]) + 1;
	if (bytes > PROC_ARG_MAX)
		return 0;
	ptrs[n++] = (uint64_t)argc;
	for (int i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]) + 1;
		sp -= len;
		as_write(as, sp, argv[i], len);
		ptrs[n++] = sp;
	}
	ptrs[n++] = 0;                       /* end of argv */
	ptrs[n++] = 0;                       /* end of envp (empty) */
	sp = ALIGN_DOWN(sp, 16) - ALIGN_UP((uint64_t)n * 8, 16);
	as_write(as, sp, ptrs, (size_t)n * 8);
	return sp;
}

/*
 * psargs_set: p's argument list as psinfo_t shows it: the words joined by
 * single spaces, cut to fit p_psargs (as /proc's PRARGSZ), and the count.
 */
static void psargs_set(struct proc *p, int argc, char *const argv[])
{
	size_t n = 0;

	for (int i = 0; i < argc && n + 1 < sizeof(p->p_psargs); i++) {
		if (i > 0)
			p->p_psargs[n++] = ' ';
		n += kstrlcpy(p->p_psargs + n, argv[i], sizeof(p->p_psargs) - n);
		n = MIN(n, sizeof(p->p_psargs) - 1);
	}
	p->p_psargs[n] = 0;
	p->p_argc = argc;
}

int proc_load(struct proc *p, const struct kfile *kf, int argc, char *const argv[],
              uint64_t *pc, uint64_t *sp, char *err, size_t errsize)
{
	struct elf_image img;
	int r;

	if (elf_parse(kf->kf_data, kf->kf_size, ARCH_ELF_MACHINE, ARCH_USER_BASE,
	              PROC_STACK_BOTTOM - PROC_BRK_MAX, &img, err, errsize) < 0)
		return -ENOEXEC;
	for (int i = 0; i < img.ei_nseg; i++)
		if ((r = load_segment(p->p_as, kf, &img.ei_seg[i])) < 0)
			return r;
	if ((r = map_zero_pages(p->p_as, PROC_STACK_BOTTOM, PROC_STACK_TOP, ARCH_PROT_WRITE)) < 0)
		return r;
	if ((*sp = stack_build(p->p_as, argc, argv)) == 0)
		return -E2BIG;
	*pc = img.ei_entry;
	p->p_image = kf;
	psargs_set(p, argc, argv);
	p->p_brk_base = p->p_brk = ALIGN_UP(img.ei_end, PAGE_SIZE);
	return 0;
}

#define UNMAP_BATCH 128            /* pages unmapped per TLB flush */

/*
 * unmap_free: unmap the pages of [lo, hi) that are mapped, flush them from
 * every CPU that may hold them (arch_as_flush: a cross-call to each other
 * CPU that has the space loaded), then give them back; how many there were.
 * In batches, since a page may be freed only after its flush.
 */
static uint64_t unmap_free(struct arch_as *as, uint64_t lo, uint64_t hi)
{
	void *pages[UNMAP_BATCH];
	uint64_t total = 0;

	for (uint64_t va = arch_as_next(as, lo, hi); va < hi;) {
		uint64_t first = va, last = va;
		int n = 0;
		for (; va < hi && n < UNMAP_BATCH; va = arch_as_next(as, va + PAGE_SIZE, hi)) {
			void *page = arch_as_unmap(as, va);
			if (page != NULL)
				pages[n++] = page;
			last = va;
		}
		arch_as_flush(as, first, last + PAGE_SIZE);
		for (int i = 0; i < n; i++)
			arch_as_page_put(pages[i]);
		total += (uint64_t)n;
	}
	return total;
}

/* mem_charge: may p map n more pages through brk or mmap?  Counts them if so. */
static bool mem_charge(struct proc *p, uint64_t n)
{
	if (n > PROC_MEM_PAGES - MIN(p->p_mem_pages, PROC_MEM_PAGES))
		return false;
	p->p_mem_pages += n;
	return true;
}

static void mem_uncharge(struct proc *p, uint64_t n)
{
	p->p_mem_pages -= MIN(n, p->p_mem_pages);
}

uint64_t proc_brk(struct proc *p, uint64_t addr)
{
	uint64_t old_top = ALIGN_UP(p->p_brk, PAGE_SIZE);

	if (addr < p->p_brk_base || addr > p->p_brk_base + PROC_BRK_MAX)
		return p->p_brk;
	uint64_t new_top = ALIGN_UP(addr, PAGE_SIZE);
	if (new_top > old_top) {
		uint64_t n = (new_top - old_top) / PAGE_SIZE;
		if (!mem_charge(p, n))
			return p->p_brk;
		if (map_zero_pages(p->p_as, old_top, new_top, ARCH_PROT_WRITE) < 0) {
			unmap_free(p->p_as, old_top, new_top);
			mem_uncharge(p, n);
			return p->p_brk;
		}
	}
	mem_uncharge(p, unmap_free(p->p_as, new_top, old_top));
	p->p_brk = addr;
	return addr;
}

static int mmap_prot(int prot)
{
	return (prot & PROT_WRITE ? ARCH_PROT_WRITE : 0) | (prot & PROT_EXEC ? ARCH_PROT_EXEC : 0);
}

/* mmap_range_ok: [addr, addr + len) page-aligned, inside the user half, below the stack. */
static bool mmap_range_ok(uint64_t addr, uint64_t len)
{
	return (addr & (PAGE_SIZE - 1)) == 0 && addr >= ARCH_USER_BASE &&
	       addr < PROC_STACK_BOTTOM && len <= PROC_STACK_BOTTOM - addr;
}

int64_t proc_mmap(struct proc *p, uint64_t addr, uint64_t len, int prot, int flags)
{
	if (len == 0 || len > PROC_MMAP_MAX)
		return len == 0 ? -EINVAL : -ENOMEM;
	if (!(flags & MAP_ANONYMOUS))
		return -ENODEV;                      /* no file can be mapped yet */
	if ((prot & PROT_WRITE) && (prot & PROT_EXEC))
		return -EACCES;                      /* never writable and executable */
	len = ALIGN_UP(len, PAGE_SIZE);
	if (flags & MAP_FIXED) {
		if (!mmap_range_ok(addr, len))
			return -EINVAL;
		proc_munmap(p, addr, len);
	} else {
		addr = p->p_mmap_next != 0 ? p->p_mmap_next : PROC_MMAP_BASE;
		if (!mmap_range_ok(addr, len))
			return -ENOMEM;
		p->p_mmap_next = addr + len + PAGE_SIZE;
	}
	if ((prot & 7) == 0)
		return (int64_t)addr;                /* PROT_NONE: reserved, nothing mapped */
	if (!mem_charge(p, len / PAGE_SIZE))
		return -ENOMEM;
	if (map_zero_pages(p->p_as, addr, addr + len, mmap_prot(prot)) < 0) {
		unmap_free(p->p_as, addr, addr + len);
		mem_uncharge(p, len / PAGE_SIZE);
		return -ENOMEM;
	}
	return (int64_t)addr;
}

int64_t proc_munmap(struct proc *p, uint64_t addr, uint64_t len)
{
	if ((addr & (PAGE_SIZE - 1)) != 0 || len == 0 || addr >= ARCH_USER_TOP ||
	    len > ARCH_USER_TOP - addr)
		return -EINVAL;
	mem_uncharge(p, unmap_free(p->p_as, addr, ALIGN_UP(addr + len, PAGE_SIZE)));
	return 0;
}
