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
 * Segments may share a page (Sonde's are packed with -n), so the pages are
 * reserved per run of touching page ranges, not per segment.
 */
#include "boot/efi/loader.h"

#define PT_LOAD   1
#define PT_NOTE   4
#define PF_X      1
#define EM_X86_64 62
#define ET_EXEC   2
#define PAGE      4096ull

struct elf64_ehdr {
	unsigned char e_ident[16];
	uint16_t e_type, e_machine;
	uint32_t e_version;
	uint64_t e_entry, e_phoff, e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf64_phdr {
	uint32_t p_type, p_flags;
	uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

struct elf64_nhdr {
	uint32_t n_namesz, n_descsz, n_type;
};

/* What the checks found: the loadable segments in order of address. */
struct kimage {
	const char *ki_name;
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
	    !fits(e->e_phoff, (uint64_t)e->e_phnum * sizeof(struct elf64_phdr), f->b_size))
		return bad_elf(ki, L"program headers missing or outside the file");
	return EFI_SUCCESS;
}

/* seg_add: one PT_LOAD segment, kept sorted by physical address. */
static EFI_STATUS seg_add(struct kimage *ki, const struct elf64_phdr *p, const struct blob *f)
{
	int i;

	if (p->p_memsz == 0)
		return EFI_SUCCESS;
	if (!fits(p->p_offset, p->p_filesz, f->b_size))
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

static EFI_STATUS elf_check(struct kimage *ki, const struct blob *f)
{
	const struct elf64_ehdr *e = f->b_data;
	const struct elf64_phdr *ph;
	EFI_STATUS s;

	if ((s = ehdr_check(ki, f)) != EFI_SUCCESS)
		return s;
	ph = (const void *)((const char *)f->b_data + e->e_phoff);
	for (int i = 0; i < e->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && (s = seg_add(ki, &ph[i], f)) != EFI_SUCCESS)
			return s;
		if (ph[i].p_type == PT_NOTE)
			note_find(ki, &ph[i], f);
	}
	if (ki->ki_nseg == 0)
		return bad_elf(ki, L"no loadable segment");
	for (int i = 0; i + 1 < ki->ki_nseg; i++) {
		const struct elf64_phdr *a = ki->ki_seg[i], *b = ki->ki_seg[i + 1];
		if (a->p_paddr + a->p_memsz > b->p_paddr)
			return loader_fail(EFI_LOAD_ERROR, L"%a: bad ELF: segments %lx-%lx and %lx-%lx overlap",
			                   ki->ki_name, a->p_paddr, a->p_paddr + a->p_memsz,
			                   b->p_paddr, b->p_paddr + b->p_memsz);
	}
	return entry_check(ki);
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

EFI_STATUS elf_load(struct loader *ld, const char *name, const struct blob *file)
{
	struct kimage ki = { .ki_name = name };
	EFI_STATUS s;

	if ((s = elf_check(&ki, file)) != EFI_SUCCESS || (s = elf_reserve(ld, &ki)) != EFI_SUCCESS)
		return s;
	elf_copy(&ki, file);
	ld->ld_entry = ki.ki_entry;
	Print(L"sonde-efi: %a: %d segments loaded, entry %lx\n", name, ki.ki_nseg, ki.ki_entry);
	return EFI_SUCCESS;
}
