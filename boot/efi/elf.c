/*
 * elf.c - check kernel.elf and load its segments at their physical addresses.
 *
 * The file is untrusted until elf_check() has looked at every header the
 * loader will use: the ELF header, each program header (inside the file,
 * sizes that do not wrap), the PT_LOAD segments (below SONDE_HANDOFF_LIMIT,
 * where the kernel's boot page tables reach, and not overlapping each
 * other) and the "Sonde" note giving the 64-bit entry (inside an executable
 * segment linked at its physical address, since the firmware's page tables
 * map memory 1:1).  Only then does elf_reserve() ask the firmware for the
 * exact pages (AllocateAddress, so memory the firmware uses is never
 * overwritten: it refuses instead) and elf_copy() fill them.
 *
 * The pages are reserved twice over, in effect: first from the file's head
 * alone (elf_reserve_early: ELF and program headers, before the file is read
 * into memory, so that the firmware cannot put that buffer where the kernel
 * goes), then checked again from the whole file (elf_load), which keeps
 * what is already held and reserves anything else.
 *
 * Segments may share a page (Sonde's are packed with -n), so the pages are
 * reserved per run of touching page ranges, not per segment.
 *
 * Tests: tests/e2e/test_efi.py (through elf_host.c and OVMF)
 */
#include "boot/efi/loader.h"
#include "kernel/elf.h"                 /* the ELF-64 file and program headers */

#define PT_LOAD   1
#define PT_NOTE   4
#define PF_X      1
#define EM_X86_64 62
#define ET_EXEC   2
#define PAGE      4096ull

struct elf64_nhdr {
	uint32_t n_namesz, n_descsz, n_type;
};

/* What the checks found: the loadable segments in order of address. */
struct kimage {
	const char *ki_name;
	uint64_t ki_size;                    /* the whole file's, even when only its head is read */
	const struct elf64_phdr *ki_seg[LOADER_MAX_SEGMENTS];
	int ki_nseg;
	uint64_t ki_entry;
};

static EFI_STATUS bad_elf(const struct kimage *ki, const CHAR16 *what)
{
	return loader_fail(EFI_LOAD_ERROR, L"%a: bad ELF: %s", ki->ki_name, what);
}

/* fits: [off, off + len) lies inside a file of size bytes. */
static BOOLEAN fits(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/*
 * ehdr_check: the ELF header, and the program headers inside the file.
 * EFI_NOT_READY, unreported, when they are in the file but beyond the bytes
 * read so far (f is only the file's head).
 */
static EFI_STATUS ehdr_check(const struct kimage *ki, const struct blob *f)
{
	const struct elf64_ehdr *e = f->b_data;

	if (f->b_size < sizeof(*e) || e->e_ident[0] != 0x7f || e->e_ident[1] != 'E' ||
	    e->e_ident[2] != 'L' || e->e_ident[3] != 'F')
		return bad_elf(ki, L"not an ELF file");
	if (e->e_ident[4] != 2 || e->e_ident[5] != 1 || e->e_machine != EM_X86_64)
		return bad_elf(ki, L"not a little-endian 64-bit x86-64 file");
	if (e->e_type != ET_EXEC)
		return bad_elf(ki, L"not an executable");
	if (e->e_phentsize != sizeof(struct elf64_phdr) || e->e_phnum == 0 ||
	    !fits(e->e_phoff, (uint64_t)e->e_phnum * sizeof(struct elf64_phdr), ki->ki_size))
		return bad_elf(ki, L"program headers missing or outside the file");
	if (!fits(e->e_phoff, (uint64_t)e->e_phnum * sizeof(struct elf64_phdr), f->b_size))
		return EFI_NOT_READY;
	return EFI_SUCCESS;
}

/* seg_add: one PT_LOAD segment, kept sorted by physical address. */
static EFI_STATUS seg_add(struct kimage *ki, const struct elf64_phdr *p)
{
	int i;

	if (p->p_memsz == 0)
		return EFI_SUCCESS;
	if (!fits(p->p_offset, p->p_filesz, ki->ki_size))
		return bad_elf(ki, L"a segment runs past the end of the file");
	if (p->p_filesz > p->p_memsz)
		return bad_elf(ki, L"a segment is larger in the file than in memory");
	if (p->p_memsz > SONDE_HANDOFF_LIMIT || p->p_paddr > SONDE_HANDOFF_LIMIT - p->p_memsz)
		return loader_fail(EFI_LOAD_ERROR, L"%a: bad ELF: segment at %lx (%lx bytes) is not "
		                   L"inside the first GiB", ki->ki_name, p->p_paddr, p->p_memsz);
	if (ki->ki_nseg == LOADER_MAX_SEGMENTS)
		return bad_elf(ki, L"too many segments");
	for (i = ki->ki_nseg; i > 0 && ki->ki_seg[i - 1]->p_paddr > p->p_paddr; i--)
		ki->ki_seg[i] = ki->ki_seg[i - 1];
	ki->ki_seg[i] = p;
	ki->ki_nseg++;
	return EFI_SUCCESS;
}

/* note_find: the entry from a "Sonde" note in the PT_NOTE segment p, if there. */
static void note_find(struct kimage *ki, const struct elf64_phdr *p, const struct blob *f)
{
	const unsigned char *base = (const unsigned char *)f->b_data + p->p_offset;
	uint64_t off = 0;

	if (!fits(p->p_offset, p->p_filesz, f->b_size))
		return;
	while (off + sizeof(struct elf64_nhdr) <= p->p_filesz) {
		const struct elf64_nhdr *n = (const void *)(base + off);
		uint64_t name = off + sizeof(*n), desc = name + ((n->n_namesz + 3ull) & ~3ull);
		uint64_t next = desc + ((n->n_descsz + 3ull) & ~3ull);
		if (next > p->p_filesz)
			return;
		if (n->n_type == SONDE_NOTE_EFI_ENTRY && n->n_namesz == sizeof(SONDE_NOTE_NAME) &&
		    CompareMem(base + name, SONDE_NOTE_NAME, sizeof(SONDE_NOTE_NAME)) == 0 &&
		    n->n_descsz == 8)
			CopyMem(&ki->ki_entry, (void *)(base + desc), 8);
		off = next;
	}
}

/* entry_check: the entry lies in an executable segment whose VMA = LMA. */
static EFI_STATUS entry_check(const struct kimage *ki)
{
	if (ki->ki_entry == 0)
		return bad_elf(ki, L"no \"Sonde\" entry note (not a Sonde kernel, or too old)");
	for (int i = 0; i < ki->ki_nseg; i++) {
		const struct elf64_phdr *p = ki->ki_seg[i];
		if ((p->p_flags & PF_X) && p->p_vaddr == p->p_paddr &&
		    ki->ki_entry >= p->p_paddr && ki->ki_entry - p->p_paddr < p->p_filesz)
			return EFI_SUCCESS;
	}
	return loader_fail(EFI_LOAD_ERROR, L"%a: bad ELF: entry %lx is not in an identity-linked "
	                   L"executable segment", ki->ki_name, ki->ki_entry);
}

/* elf_segments: the headers and the PT_LOAD segments, from f (maybe the head only). */
static EFI_STATUS elf_segments(struct kimage *ki, const struct blob *f)
{
	const struct elf64_ehdr *e = f->b_data;
	const struct elf64_phdr *ph;
	EFI_STATUS s;

	if ((s = ehdr_check(ki, f)) != EFI_SUCCESS)
		return s;
	ph = (const void *)((const char *)f->b_data + e->e_phoff);
	for (int i = 0; i < e->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && (s = seg_add(ki, &ph[i])) != EFI_SUCCESS)
			return s;
	if (ki->ki_nseg == 0)
		return bad_elf(ki, L"no loadable segment");
	for (int i = 0; i + 1 < ki->ki_nseg; i++) {
		const struct elf64_phdr *a = ki->ki_seg[i], *b = ki->ki_seg[i + 1];
		if (a->p_paddr + a->p_memsz > b->p_paddr)
			return loader_fail(EFI_LOAD_ERROR, L"%a: bad ELF: segments %lx-%lx and %lx-%lx overlap",
			                   ki->ki_name, a->p_paddr, a->p_paddr + a->p_memsz,
			                   b->p_paddr, b->p_paddr + b->p_memsz);
	}
	return EFI_SUCCESS;
}

/* elf_check: everything, from the whole file. */
static EFI_STATUS elf_check(struct kimage *ki, const struct blob *f)
{
	const struct elf64_ehdr *e = f->b_data;
	const struct elf64_phdr *ph;
	EFI_STATUS s;

	if ((s = elf_segments(ki, f)) != EFI_SUCCESS)
		return s;
	ph = (const void *)((const char *)f->b_data + e->e_phoff);
	for (int i = 0; i < e->e_phnum; i++)
		if (ph[i].p_type == PT_NOTE)
			note_find(ki, &ph[i], f);
	return entry_check(ki);
}

/* held: the loader holds exactly these pages already (elf_reserve_early took them). */
static BOOLEAN held(const struct loader *ld, uint64_t addr, uint64_t pages)
{
	for (int i = 0; i < ld->ld_nalloc; i++)
		if (ld->ld_alloc[i].a_addr == addr && ld->ld_alloc[i].a_pages == pages)
			return TRUE;
	return FALSE;
}

/* elf_reserve: AllocateAddress for each run of pages the segments touch. */
static EFI_STATUS elf_reserve(struct loader *ld, const struct kimage *ki)
{
	for (int i = 0; i < ki->ki_nseg; ) {
		uint64_t lo = ki->ki_seg[i]->p_paddr & ~(PAGE - 1);
		uint64_t hi = (ki->ki_seg[i]->p_paddr + ki->ki_seg[i]->p_memsz + PAGE - 1) & ~(PAGE - 1);
		for (i++; i < ki->ki_nseg && (ki->ki_seg[i]->p_paddr & ~(PAGE - 1)) <= hi; i++) {
			uint64_t end = (ki->ki_seg[i]->p_paddr + ki->ki_seg[i]->p_memsz + PAGE - 1) & ~(PAGE - 1);
			hi = end > hi ? end : hi;
		}
		EFI_PHYSICAL_ADDRESS at = lo;
		if (held(ld, lo, (hi - lo) / PAGE))
			continue;
		/* Loader code, not data: the firmware may map data pages no-execute. */
		EFI_STATUS s = loader_pages(ld, AllocateAddress, EfiLoaderCode, (hi - lo) / PAGE, &at);
		if (s != EFI_SUCCESS)
			return loader_fail(s, L"%a: cannot reserve its memory %lx-%lx (in use by the firmware, "
			                   L"or no RAM there)", ki->ki_name, lo, hi);
	}
	return EFI_SUCCESS;
}

static void elf_copy(const struct kimage *ki, const struct blob *f)
{
	for (int i = 0; i < ki->ki_nseg; i++) {
		const struct elf64_phdr *p = ki->ki_seg[i];
		char *dst = (char *)(UINTN)p->p_paddr;
		CopyMem(dst, (char *)f->b_data + p->p_offset, p->p_filesz);
		SetMem(dst + p->p_filesz, p->p_memsz - p->p_filesz, 0);
	}
}

EFI_STATUS elf_reserve_early(struct loader *ld, const char *name, const struct blob *head, uint64_t size)
{
	struct kimage ki = { .ki_name = name, .ki_size = size };
	EFI_STATUS s = elf_segments(&ki, head);

	if (s == EFI_NOT_READY)
		return EFI_SUCCESS;                /* headers further in: elf_load reserves */
	return s != EFI_SUCCESS ? s : elf_reserve(ld, &ki);
}

EFI_STATUS elf_load(struct loader *ld, const char *name, const struct blob *file)
{
	struct kimage ki = { .ki_name = name, .ki_size = file->b_size };
	EFI_STATUS s;

	if ((s = elf_check(&ki, file)) != EFI_SUCCESS || (s = elf_reserve(ld, &ki)) != EFI_SUCCESS)
		return s;
	elf_copy(&ki, file);
	ld->ld_entry = ki.ki_entry;
	Print(L"sonde-efi: %a: %d segments loaded, entry %lx\n", name, ki.ki_nseg, ki.ki_entry);
	return EFI_SUCCESS;
}
