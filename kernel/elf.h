/*
 * elf.h - checking a static ELF64 executable before it is loaded.
 *
 * elf_parse() reads an image from the boot archive and either describes
 * what to map (entry point and up to ELF_SEG_MAX loadable segments) or
 * refuses it with a one-line reason.  It never maps anything itself:
 * kernel/proc_exec.c does that from the description.  Pure code, no kernel
 * calls: tests/unit/kernel_elf_test.c runs it on the host against truncated and
 * corrupt images.
 */
#ifndef SONDE_ELF_H
#define SONDE_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The file's headers, as the ELF-64 specification lays them out. */
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

#define ELF_SEG_MAX 8

/* Segment permissions, as in an ELF program header's p_flags. */
#define ELF_PF_X 1
#define ELF_PF_W 2
#define ELF_PF_R 4

struct elf_seg {
	uint64_t es_vaddr;           /* where it starts in the process (any alignment) */
	uint64_t es_memsz;           /* bytes in memory; past es_filesz they are zero */
	uint64_t es_offset;          /* where its bytes start in the file */
	uint64_t es_filesz;
	uint32_t es_flags;           /* ELF_PF_*: never both W and X */
};

struct elf_image {
	uint64_t ei_entry;
	int ei_nseg;
	struct elf_seg ei_seg[ELF_SEG_MAX];
	uint64_t ei_end;             /* the highest segment end (the break starts above it) */
};

/*
 * elf_parse: check len bytes at data as a static ELF64 executable for
 * machine (ELF e_machine, e.g. arch.h's ARCH_ELF_MACHINE) whose segments
 * lie in [lo, hi).  Every header field that matters is checked: magic,
 * class, byte order, versions, type (ET_EXEC only: no dynamic loader
 * exists), machine, header sizes, the program header table's place in the
 * file, each PT_LOAD's offset and size against the file (without
 * overflow), filesz <= memsz, offset and address congruent modulo the page,
 * the address range, segments in order and not overlapping a page, no
 * segment both writable and executable, no PT_INTERP or PT_DYNAMIC, and an
 * entry point inside an executable segment.  Returns 0 and fills img, or
 * -1 with the reason in err ("truncated: program headers end at 0x1c8, the
 * file has 0x100 bytes").  Any context.
 */
int elf_parse(const void *data, uint64_t len, uint16_t machine, uint64_t lo, uint64_t hi,
              struct elf_image *img, char *err, size_t errsize);

/*
 * elf_symbolize: the function symbol of the ELF image (len bytes at data)
 * whose range holds addr, from its .symtab, as "name+0xoff" in buf.
 * Returns false (buf untouched) if the image has no symbol table or no
 * function there; every offset and index is checked against the file.
 * Any context.
 */
bool elf_symbolize(const void *data, uint64_t len, uint64_t addr, char *buf, size_t size);

/*
 * elf_func_at: the same lookup, giving the function's name (at most size
 * bytes with the NUL) and its start address.  Any context.
 */
bool elf_func_at(const void *data, uint64_t len, uint64_t addr, char *name, size_t size,
                 uint64_t *start);

/*
 * elf_func_each: call fn(name, addr, size, arg) for every function symbol
 * of nonzero size in the image's .symtab, in table order, until fn returns
 * false.  Returns how many were passed.  Names longer than ELF_NAME_MAX - 1
 * are cut.  Any context.
 */
/*
 * elf_section_find: the file offset and size of the section called name
 * (with bytes in the file), checked against the file.  Any context.
 */
bool elf_section_find(const void *data, uint64_t len, const char *name, uint64_t *off,
                      uint64_t *size);

#define ELF_NAME_MAX 128
typedef bool elf_func_fn(const char *name, uint64_t addr, uint64_t size, void *arg);
int elf_func_each(const void *data, uint64_t len, elf_func_fn *fn, void *arg);

/* elf_machine_name, elf_data_name: e_machine and EI_DATA in words, for messages ("SPARC V9", "big-endian"). */
const char *elf_machine_name(unsigned machine);
const char *elf_data_name(unsigned data);

#endif
