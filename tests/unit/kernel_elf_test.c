/*
 * kernel_elf_test.c - the static ELF64 checker behind exec (kernel/elf.c).
 *
 * Each test builds one small valid executable in memory (two segments:
 * text R+X, data R+W with a bss tail), breaks one field, and checks that
 * elf_parse() refuses it with the expected reason; every truncation of the
 * valid image is refused too.  elf_symbolize() is checked the same way on
 * an image with a symbol table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "kernel/elf.h"

#define MACHINE  62
#define LO       0x400000UL
#define HI       0x800000000000UL
#define FILE_LEN 0x210

/* The image: the ELF header, two program headers, then the segments' bytes. */
static union {
	unsigned char bytes[FILE_LEN];
	struct {
		struct elf64_ehdr eh;
		struct elf64_phdr ph[2];
	} h;
} img;

static char err[160];
static struct elf_image out;

static void build(void)
{
	memset(&img, 0, sizeof(img));
	memcpy(img.h.eh.e_ident, "\177ELF\2\1\1", 7);
	img.h.eh.e_type = 2;
	img.h.eh.e_machine = MACHINE;
	img.h.eh.e_version = 1;
	img.h.eh.e_entry = 0x400100;
	img.h.eh.e_phoff = 64;
	img.h.eh.e_ehsize = 64;
	img.h.eh.e_phentsize = 56;
	img.h.eh.e_phnum = 2;
	img.h.ph[0] = (struct elf64_phdr){ 1, 5, 0, 0x400000, 0x400000, 0x200, 0x200, 0x1000 };
	img.h.ph[1] = (struct elf64_phdr){ 1, 6, 0x200, 0x401200, 0x401200, 0x10, 0x100, 0x1000 };
}

static int parse(uint64_t len)
{
	err[0] = 0;
	return elf_parse(&img, len, MACHINE, LO, HI, &out, err, sizeof(err));
}

/* refused: the image as it now is must fail with a reason containing what. */
static void refused(const char *what)
{
	assert_int_equal(parse(FILE_LEN), -1);
	if (strstr(err, what) == NULL)
		fail_msg("reason \"%s\" does not say \"%s\"", err, what);
}

static void test_valid(void **state)
{
	(void)state;
	build();
	assert_int_equal(parse(FILE_LEN), 0);
	assert_int_equal(out.ei_entry, 0x400100);
	assert_int_equal(out.ei_nseg, 2);
	assert_int_equal(out.ei_seg[1].es_vaddr, 0x401200);
	assert_int_equal(out.ei_seg[1].es_filesz, 0x10);
	assert_int_equal(out.ei_seg[1].es_memsz, 0x100);
	assert_int_equal(out.ei_end, 0x401300);
}

static void test_truncated_everywhere(void **state)
{
	(void)state;
	build();
	for (uint64_t len = 0; len < FILE_LEN; len++) {
		if (parse(len) != -1)
			fail_msg("a %lu-byte truncation was accepted", (unsigned long)len);
		assert_non_null(strstr(err, "truncated"));
	}
}

static void test_ident(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++) {
		build();
		img.h.eh.e_ident[i] ^= 0x20;
		refused("bad magic");
	}
	build(); img.h.eh.e_ident[4] = 1; refused("64-bit");
	build(); img.h.eh.e_ident[5] = 2; refused("little-endian");
	/* The host is little-endian: a big-endian file (sparc64's) is named as such. */
	build(); img.h.eh.e_ident[5] = 2; refused("big-endian file (data 2): this machine is little-endian");
	build(); img.h.eh.e_ident[5] = 3; refused("unknown byte order");
	build(); img.h.eh.e_ident[6] = 0; refused("identification version");
	build(); img.h.eh.e_ident[7] = 9; refused("OS ABI");
}

static void test_header_fields(void **state)
{
	(void)state;
	build(); img.h.eh.e_type = 3; refused("static executable");
	build(); img.h.eh.e_machine = 3; refused("wrong machine");
	build(); img.h.eh.e_machine = 43; refused("wrong machine 43, SPARC V9 (want 62, x86-64)");
	build(); img.h.eh.e_version = 0; refused("ELF version");
	build(); img.h.eh.e_ehsize = 52; refused("ELF header size");
	build(); img.h.eh.e_phentsize = 32; refused("program header size");
	build(); img.h.eh.e_phnum = 0; refused("program header count");
	build(); img.h.eh.e_phnum = 1000; refused("program header count");
	build(); img.h.eh.e_phoff = 0x200; refused("truncated");
	build(); img.h.eh.e_phoff = ~0UL - 8; refused("truncated");
}

static void test_segment_fields(void **state)
{
	(void)state;
	build(); img.h.ph[1].p_offset = ~0UL; refused("truncated");
	build(); img.h.ph[1].p_filesz = ~0UL; refused("truncated");
	build(); img.h.ph[1].p_filesz = 0x101; img.h.ph[1].p_offset = 0x100;
	img.h.ph[1].p_vaddr = 0x401100; refused("file size above memory size");
	build(); img.h.ph[1].p_memsz = 0; img.h.ph[1].p_filesz = 0; refused("empty");
	build(); img.h.ph[0].p_vaddr = 0x1000; refused("outside the user address range");
	build(); img.h.ph[1].p_vaddr = HI; refused("outside the user address range");
	build(); img.h.ph[1].p_memsz = ~0UL; refused("outside the user address range");
	build(); img.h.ph[1].p_vaddr = 0x401300; refused("congruent");
	build(); img.h.ph[1].p_align = 0x1800; refused("power of two");
	build(); img.h.ph[1].p_flags = 7; refused("writable and executable");
	build(); img.h.ph[1].p_flags = 0x16; refused("unknown flags");
	build(); img.h.ph[1].p_vaddr = 0x400200; refused("overlaps");
	build(); img.h.ph[1].p_type = 3; refused("dynamically linked");
	build(); img.h.ph[0].p_type = 2; refused("dynamically linked");
	build(); img.h.ph[0].p_type = 4; img.h.ph[1].p_type = 4; refused("no loadable segment");
}

static void test_entry(void **state)
{
	(void)state;
	build(); img.h.eh.e_entry = 0x401200; refused("not in an executable segment");
	build(); img.h.eh.e_entry = 0x400200; refused("not in an executable segment");
	build(); img.h.eh.e_entry = 0; refused("not in an executable segment");
}

/* An image with only a section table: [null, .symtab, .strtab], one function "main". */
struct shdr {
	uint32_t sh_name, sh_type;
	uint64_t sh_flags, sh_addr, sh_offset, sh_size;
	uint32_t sh_link, sh_info;
	uint64_t sh_addralign, sh_entsize;
};

struct sym {
	uint32_t st_name;
	unsigned char st_info, st_other;
	uint16_t st_shndx;
	uint64_t st_value, st_size;
};

#define SYM_LEN (64 + 3 * 64 + 2 * 24 + 6)
static union {
	unsigned char bytes[SYM_LEN];
	struct {
		struct elf64_ehdr eh;
		struct shdr sh[3];
		struct sym sym[2];
		char str[6];
	} __attribute__((packed)) h;
} simg;

static void build_syms(void)
{
	memset(&simg, 0, sizeof(simg));
	memcpy(simg.h.eh.e_ident, "\177ELF\2\1\1", 7);
	simg.h.eh.e_shoff = 64;
	simg.h.eh.e_shentsize = 64;
	simg.h.eh.e_shnum = 3;
	simg.h.sh[1] = (struct shdr){ .sh_type = 2, .sh_offset = 64 + 3 * 64, .sh_size = 48, .sh_link = 2 };
	simg.h.sh[2] = (struct shdr){ .sh_type = 3, .sh_offset = 64 + 3 * 64 + 48, .sh_size = 6 };
	simg.h.sym[1] = (struct sym){ .st_name = 1, .st_info = 0x12, .st_value = 0x401000, .st_size = 0x20 };
	memcpy(simg.h.str, "\0main", 6);
}

static bool symbolize(uint64_t len, uint64_t addr)
{
	strcpy(err, "untouched");
	return elf_symbolize(&simg, len, addr, err, sizeof(err));
}

static void test_symbolize(void **state)
{
	(void)state;
	build_syms();
	assert_true(symbolize(SYM_LEN, 0x401010));
	assert_string_equal(err, "main+0x10");
	assert_true(symbolize(SYM_LEN, 0x401000));
	assert_string_equal(err, "main+0x0");
	assert_false(symbolize(SYM_LEN, 0x401020));            /* just past its end */
	assert_false(symbolize(SYM_LEN, 0x400fff));
	assert_string_equal(err, "untouched");
}

static void test_symbolize_corrupt(void **state)
{
	(void)state;
	for (uint64_t len = 0; len < SYM_LEN; len++) {
		build_syms();
		if (symbolize(len, 0x401010))
			fail_msg("a %lu-byte truncation was symbolized", (unsigned long)len);
	}
	build_syms(); simg.h.eh.e_shoff = ~0UL - 8; assert_false(symbolize(SYM_LEN, 0x401010));
	build_syms(); simg.h.eh.e_shentsize = 40; assert_false(symbolize(SYM_LEN, 0x401010));
	build_syms(); simg.h.sh[1].sh_link = 7; assert_false(symbolize(SYM_LEN, 0x401010));
	build_syms(); simg.h.sh[1].sh_size = ~0UL; assert_false(symbolize(SYM_LEN, 0x401010));
	build_syms(); simg.h.sh[2].sh_offset = ~0UL; assert_false(symbolize(SYM_LEN, 0x401010));
	build_syms(); simg.h.sym[1].st_name = 6; assert_false(symbolize(SYM_LEN, 0x401010));
	build_syms(); simg.h.sym[1].st_info = 0x11; assert_false(symbolize(SYM_LEN, 0x401010));
	build_syms(); simg.h.str[1] = 0; assert_false(symbolize(SYM_LEN, 0x401010));  /* empty name */
	build_syms(); simg.h.str[5] = '!';       /* "main!", unterminated: cut at the table's end */
	assert_true(symbolize(SYM_LEN, 0x401010));
	assert_string_equal(err, "main!+0x10");
}

static bool count_func(const char *name, uint64_t addr, uint64_t size, void *arg)
{
	int *n = arg;

	assert_string_equal(name, "main");
	assert_int_equal(addr, 0x401000);
	assert_int_equal(size, 0x20);
	(*n)++;
	return true;
}

/* elf_func_each, elf_func_at, elf_section_find (the pid provider's readers): right, and safe on every truncation. */
static void test_functions_and_sections(void **state)
{
	char name[16];
	uint64_t start, off, size;
	int n = 0;

	(void)state;
	build_syms();
	simg.h.eh.e_shstrndx = 2;                /* section names from "\0main": section 1 is "main" */
	simg.h.sh[1].sh_name = 1;
	assert_int_equal(elf_func_each(&simg, SYM_LEN, count_func, &n), 1);
	assert_int_equal(n, 1);
	assert_true(elf_func_at(&simg, SYM_LEN, 0x40101f, name, sizeof(name), &start));
	assert_string_equal(name, "main");
	assert_int_equal(start, 0x401000);
	assert_false(elf_func_at(&simg, SYM_LEN, 0x401020, name, sizeof(name), &start));
	assert_true(elf_section_find(&simg, SYM_LEN, "main", &off, &size));
	assert_int_equal(off, 64 + 3 * 64);
	assert_int_equal(size, 48);
	assert_false(elf_section_find(&simg, SYM_LEN, "sonde_usdt", &off, &size));
	for (uint64_t len = 0; len < SYM_LEN; len++) {
		n = 0;
		if (elf_func_each(&simg, len, count_func, &n) != 0 ||
		    elf_func_at(&simg, len, 0x401010, name, sizeof(name), &start))
			fail_msg("a %lu-byte truncation gave a function", (unsigned long)len);
		if (len < 64 + 3 * 64 + 48 && elf_section_find(&simg, len, "main", &off, &size))
			fail_msg("a %lu-byte truncation gave a section", (unsigned long)len);
	}
	simg.h.eh.e_shstrndx = 9;
	assert_false(elf_section_find(&simg, SYM_LEN, "main", &off, &size));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_ident),
		cmocka_unit_test(test_header_fields),
		cmocka_unit_test(test_segment_fields),
		cmocka_unit_test(test_entry),
		cmocka_unit_test(test_symbolize),
		cmocka_unit_test(test_symbolize_corrupt),
		cmocka_unit_test(test_functions_and_sections),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
