/*
 * elf.c - checking a static ELF64 executable (see elf.h for what is checked).
 *
 * The image comes from a file, so nothing in it is trusted: headers are
 * copied out with memcpy (the file need not be aligned), every offset and
 * size is checked against the file length in a way that cannot overflow,
 * and nothing is reported as loadable until the whole image passed.  The
 * order below follows the file: the ELF header, then each program header,
 * then the entry point.
 *
 * Tests: tests/unit/kernel_elf_test.c; tests/e2e/test_proc.py
 */
#include "kernel/elf.h"
#include "kernel/klib.h"

#define EH_SIZE     64
#define PH_SIZE     56
#define PH_MAX      64
#define ELF_PAGE    4096UL

#define ET_EXEC     2
#define EV_CURRENT  1
#define PT_LOAD     1
#define PT_DYNAMIC  2
#define PT_INTERP   3

/* The parse in progress: the file, its limits, and where to say what is wrong. */
struct elf_parse {
	const unsigned char *ep_data;
	uint64_t ep_len;
	uint64_t ep_lo, ep_hi;
	char *ep_err;
	size_t ep_errsize;
};

_Static_assert(sizeof(struct elf64_ehdr) == EH_SIZE, "ELF header layout");
_Static_assert(sizeof(struct elf64_phdr) == PH_SIZE, "program header layout");

#define ELF_FAIL(ep, ...) (ksnprintf((ep)->ep_err, (ep)->ep_errsize, __VA_ARGS__), -1)

/* fits: do [off, off + size) lie inside a file of len bytes?  (no overflow) */
static bool fits(uint64_t off, uint64_t size, uint64_t len)
{
	return off <= len && size <= len - off;
}

/*
 * The file is read in the machine's own byte order (headers are copied
 * out, not converted), so its data encoding must be the machine's:
 * ELFDATA2LSB (1) on x86_64, ELFDATA2MSB (2) on sparc64.
 */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ELF_DATA_NATIVE 2
#else
#define ELF_DATA_NATIVE 1
#endif

const char *elf_data_name(unsigned data)
{
	return data == 1 ? "little-endian" : data == 2 ? "big-endian" : "unknown byte order";
}

const char *elf_machine_name(unsigned machine)
{
	switch (machine) {
	case 2:   return "SPARC";
	case 3:   return "i386";
	case 40:  return "ARM";
	case 43:  return "SPARC V9";
	case 62:  return "x86-64";
	case 183: return "AArch64";
	case 243: return "RISC-V";
	default:  return "unknown";
	}
}

static int elf_check_ident(struct elf_parse *ep, const struct elf64_ehdr *eh)
{
	const unsigned char *id = eh->e_ident;

	if (id[0] != 0x7f || id[1] != 'E' || id[2] != 'L' || id[3] != 'F')
		return ELF_FAIL(ep, "not an ELF file (bad magic)");
	if (id[4] != 2)
		return ELF_FAIL(ep, "not a 64-bit ELF file (class %u)", id[4]);
	if (id[5] != ELF_DATA_NATIVE)
		return ELF_FAIL(ep, "%s file (data %u): this machine is %s", elf_data_name(id[5]), id[5],
		                elf_data_name(ELF_DATA_NATIVE));
	if (id[6] != EV_CURRENT)
		return ELF_FAIL(ep, "bad ELF identification version %u", id[6]);
	if (id[7] != 0 && id[7] != 3)
		return ELF_FAIL(ep, "unsupported OS ABI %u", id[7]);
	return 0;
}

static int elf_check_ehdr(struct elf_parse *ep, const struct elf64_ehdr *eh, uint16_t machine)
{
	if (elf_check_ident(ep, eh) < 0)
		return -1;
	if (eh->e_type != ET_EXEC)
		return ELF_FAIL(ep, "not a static executable (type %u)", eh->e_type);
	if (eh->e_machine != machine)
		return ELF_FAIL(ep, "wrong machine %u, %s (want %u, %s)", eh->e_machine,
		                elf_machine_name(eh->e_machine), machine, elf_machine_name(machine));
	if (eh->e_version != EV_CURRENT)
		return ELF_FAIL(ep, "bad ELF version %u", eh->e_version);
	if (eh->e_ehsize != EH_SIZE)
		return ELF_FAIL(ep, "bad ELF header size %u", eh->e_ehsize);
	if (eh->e_phentsize != PH_SIZE)
		return ELF_FAIL(ep, "bad program header size %u", eh->e_phentsize);
	if (eh->e_phnum == 0 || eh->e_phnum > PH_MAX)
		return ELF_FAIL(ep, "bad program header count %u", eh->e_phnum);
	if (!fits(eh->e_phoff, (uint64_t)eh->e_phnum * PH_SIZE, ep->ep_len))
		return ELF_FAIL(ep, "truncated: %u program headers at 0x%lx, the file has 0x%lx bytes",
		                eh->e_phnum, (unsigned long)eh->e_phoff, (unsigned long)ep->ep_len);
	return 0;
}

/* elf_check_load: one PT_LOAD header against the file, the range and the previous segment. */
static int elf_check_load(struct elf_parse *ep, const struct elf64_phdr *ph, int i,
                          const struct elf_image *img)
{
	if (!fits(ph->p_offset, ph->p_filesz, ep->ep_len))
		return ELF_FAIL(ep, "truncated: segment %d needs 0x%lx bytes at 0x%lx, the file has 0x%lx",
		                i, (unsigned long)ph->p_filesz, (unsigned long)ph->p_offset,
		                (unsigned long)ep->ep_len);
	if (ph->p_filesz > ph->p_memsz)
		return ELF_FAIL(ep, "segment %d: file size above memory size", i);
	if (ph->p_memsz == 0)
		return ELF_FAIL(ep, "segment %d: empty", i);
	if (ph->p_vaddr < ep->ep_lo || ph->p_vaddr >= ep->ep_hi ||
	    ph->p_memsz > ep->ep_hi - ph->p_vaddr)
		return ELF_FAIL(ep, "segment %d: 0x%lx+0x%lx outside the user address range", i,
		                (unsigned long)ph->p_vaddr, (unsigned long)ph->p_memsz);
	if (ph->p_vaddr % ELF_PAGE != ph->p_offset % ELF_PAGE)
		return ELF_FAIL(ep, "segment %d: address and offset not congruent modulo the page", i);
	if (ph->p_align != 0 && (ph->p_align & (ph->p_align - 1)) != 0)
		return ELF_FAIL(ep, "segment %d: alignment 0x%lx not a power of two", i,
		                (unsigned long)ph->p_align);
	if ((ph->p_flags & ELF_PF_W) && (ph->p_flags & ELF_PF_X))
		return ELF_FAIL(ep, "segment %d: writable and executable", i);
	if (ph->p_flags & ~(uint32_t)(ELF_PF_R | ELF_PF_W | ELF_PF_X))
		return ELF_FAIL(ep, "segment %d: unknown flags 0x%x", i, ph->p_flags);
	if (img->ei_nseg > 0 && ALIGN_DOWN(ph->p_vaddr, ELF_PAGE) < ALIGN_UP(img->ei_end, ELF_PAGE))
		return ELF_FAIL(ep, "segment %d: overlaps or precedes the previous one", i);
	if (img->ei_nseg == ELF_SEG_MAX)
		return ELF_FAIL(ep, "more than %d loadable segments", ELF_SEG_MAX);
	return 0;
}

static int elf_check_phdr(struct elf_parse *ep, const struct elf64_phdr *ph, int i,
                          struct elf_image *img)
{
	if (ph->p_type == PT_INTERP || ph->p_type == PT_DYNAMIC)
		return ELF_FAIL(ep, "dynamically linked (segment %d): only static executables run", i);
	if (ph->p_type != PT_LOAD)
		return 0;
	if (elf_check_load(ep, ph, i, img) < 0)
		return -1;
	img->ei_seg[img->ei_nseg++] = (struct elf_seg){
		.es_vaddr = ph->p_vaddr, .es_memsz = ph->p_memsz,
		.es_offset = ph->p_offset, .es_filesz = ph->p_filesz, .es_flags = ph->p_flags,
	};
	img->ei_end = ph->p_vaddr + ph->p_memsz;
	return 0;
}

static int elf_check_entry(struct elf_parse *ep, struct elf_image *img, uint64_t entry)
{
	for (int i = 0; i < img->ei_nseg; i++) {
		const struct elf_seg *s = &img->ei_seg[i];
		if (entry >= s->es_vaddr && entry - s->es_vaddr < s->es_memsz &&
		    (s->es_flags & ELF_PF_X))
			return 0;
	}
	return ELF_FAIL(ep, "entry point 0x%lx not in an executable segment", (unsigned long)entry);
}

/* --- symbols ------------------------------------------------------------------- */

#define SH_SIZE     64
#define SYM_SIZE    24
#define SHT_SYMTAB  2
#define STT_FUNC    2

struct elf64_shdr {
	uint32_t sh_name, sh_type;
	uint64_t sh_flags, sh_addr, sh_offset, sh_size;
	uint32_t sh_link, sh_info;
	uint64_t sh_addralign, sh_entsize;
};

struct elf64_sym {
	uint32_t st_name;
	unsigned char st_info, st_other;
	uint16_t st_shndx;
	uint64_t st_value, st_size;
};

_Static_assert(sizeof(struct elf64_shdr) == SH_SIZE, "section header layout");
_Static_assert(sizeof(struct elf64_sym) == SYM_SIZE, "symbol layout");

/* elf_section: section i's header, if the table and it lie inside the file. */
static bool elf_section(const unsigned char *d, uint64_t len, const struct elf64_ehdr *eh,
                        uint32_t i, struct elf64_shdr *sh)
{
	if (eh->e_shentsize != SH_SIZE || i >= eh->e_shnum ||
	    !fits(eh->e_shoff, (uint64_t)eh->e_shnum * SH_SIZE, len))
		return false;
	memcpy(sh, d + eh->e_shoff + (uint64_t)i * SH_SIZE, sizeof(*sh));
	return fits(sh->sh_offset, sh->sh_size, len);
}

/* elf_sym_name: copy the NUL-terminated name at off of the string table into buf. */
static bool elf_sym_name(const unsigned char *d, const struct elf64_shdr *strtab, uint32_t off,
                         char *buf, size_t size)
{
	size_t n = 0;

	if (off >= strtab->sh_size || size == 0)
		return false;
	const char *s = (const char *)d + strtab->sh_offset + off;
	uint64_t room = strtab->sh_size - off;
	while (n < room && n + 1 < size && s[n] != 0) {
		buf[n] = s[n];
		n++;
	}
	buf[n] = 0;
	return n > 0;
}

/* elf_symtab: the image's symbol table and its string table, if both lie inside the file. */
static bool elf_symtab(const unsigned char *d, uint64_t len, struct elf64_shdr *symtab,
                       struct elf64_shdr *strtab)
{
	struct elf64_ehdr eh;

	if (len < EH_SIZE)
		return false;
	memcpy(&eh, d, sizeof(eh));
	for (uint32_t i = 0; i < eh.e_shnum; i++) {
		if (!elf_section(d, len, &eh, i, symtab) || symtab->sh_type != SHT_SYMTAB)
			continue;
		return elf_section(d, len, &eh, symtab->sh_link, strtab);
	}
	return false;
}

bool elf_section_find(const void *data, uint64_t len, const char *name, uint64_t *off,
                      uint64_t *size)
{
	const unsigned char *d = data;
	struct elf64_ehdr eh;
	struct elf64_shdr sh, names;
	char buf[64];

	if (len < EH_SIZE)
		return false;
	memcpy(&eh, d, sizeof(eh));
	if (!elf_section(d, len, &eh, eh.e_shstrndx, &names))
		return false;
	for (uint32_t i = 0; i < eh.e_shnum; i++) {
		if (!elf_section(d, len, &eh, i, &sh) || !elf_sym_name(d, &names, sh.sh_name, buf, sizeof(buf)))
			continue;
		if (strcmp(buf, name) == 0 && sh.sh_type != 8) {     /* not SHT_NOBITS */
			*off = sh.sh_offset;
			*size = sh.sh_size;
			return true;
		}
	}
	return false;
}

int elf_func_each(const void *data, uint64_t len, elf_func_fn *fn, void *arg)
{
	const unsigned char *d = data;
	struct elf64_shdr symtab, strtab;
	int n = 0;

	if (!elf_symtab(d, len, &symtab, &strtab))
		return 0;
	for (uint64_t k = 0; k < symtab.sh_size / SYM_SIZE; k++) {
		struct elf64_sym sym;
		char name[ELF_NAME_MAX];
		memcpy(&sym, d + symtab.sh_offset + k * SYM_SIZE, sizeof(sym));
		if ((sym.st_info & 0xf) != STT_FUNC || sym.st_size == 0 ||
		    !elf_sym_name(d, &strtab, sym.st_name, name, sizeof(name)))
			continue;
		n++;
		if (!fn(name, sym.st_value, sym.st_size, arg))
			break;
	}
	return n;
}

bool elf_func_at(const void *data, uint64_t len, uint64_t addr, char *name, size_t size,
                 uint64_t *start)
{
	const unsigned char *d = data;
	struct elf64_shdr symtab, strtab;

	if (!elf_symtab(d, len, &symtab, &strtab))
		return false;
	for (uint64_t k = 0; k < symtab.sh_size / SYM_SIZE; k++) {
		struct elf64_sym sym;
		memcpy(&sym, d + symtab.sh_offset + k * SYM_SIZE, sizeof(sym));
		if ((sym.st_info & 0xf) != STT_FUNC || addr < sym.st_value ||
		    addr - sym.st_value >= sym.st_size)
			continue;
		*start = sym.st_value;
		return elf_sym_name(d, &strtab, sym.st_name, name, size);
	}
	return false;
}

bool elf_symbolize(const void *data, uint64_t len, uint64_t addr, char *buf, size_t size)
{
	char name[64];
	uint64_t start;

	if (!elf_func_at(data, len, addr, name, sizeof(name), &start))
		return false;
	ksnprintf(buf, size, "%s+0x%lx", name, (unsigned long)(addr - start));
	return true;
}

/* --- the whole image ------------------------------------------------------------- */

int elf_parse(const void *data, uint64_t len, uint16_t machine, uint64_t lo, uint64_t hi,
              struct elf_image *img, char *err, size_t errsize)
{
	struct elf_parse ep = { data, len, lo, hi, err, errsize };
	struct elf64_ehdr eh;

	memset(img, 0, sizeof(*img));
	if (len < EH_SIZE)
		return ELF_FAIL(&ep, "truncated: 0x%lx bytes, an ELF header needs 0x%x",
		                (unsigned long)len, EH_SIZE);
	memcpy(&eh, data, sizeof(eh));
	if (elf_check_ehdr(&ep, &eh, machine) < 0)
		return -1;
	for (int i = 0; i < eh.e_phnum; i++) {
		struct elf64_phdr ph;
		memcpy(&ph, ep.ep_data + eh.e_phoff + (uint64_t)i * PH_SIZE, sizeof(ph));
		if (elf_check_phdr(&ep, &ph, i, img) < 0)
			return -1;
	}
	if (img->ei_nseg == 0)
		return ELF_FAIL(&ep, "no loadable segment");
	if (elf_check_entry(&ep, img, eh.e_entry) < 0)
		return -1;
	img->ei_entry = eh.e_entry;
	return 0;
}
