/*
 * test_elf.c - the static ELF64 checker behind exec (kernel/elf.c).
 *
 * Each test builds one small valid executable in memory (two segments:
 * text R+X, data R+W with a bss tail), breaks one field, and checks that
 * elf_parse() refuses it with the expected reason; every truncation of the
 * valid image is refused too.
 */
#include <setjmp.h>
#include <stdarg.h>
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

struct ehdr {
	unsigned char e_ident[16];
	uint16_t e_type, e_machine;
	uint32_t e_version;
	uint64_t e_entry, e_phoff, e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct phdr {
	uint32_t p_type, p_flags;
	uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

/* The image: the ELF header, two program headers, then the segments' bytes. */
static union {
	unsigned char bytes[FILE_LEN];
	struct {
		struct ehdr eh;
		struct phdr ph[2];
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
	img.h.ph[0] = (struct phdr){ 1, 5, 0, 0x400000, 0x400000, 0x200, 0x200, 0x1000 };
	img.h.ph[1] = (struct phdr){ 1, 6, 0x200, 0x401200, 0x401200, 0x10, 0x100, 0x1000 };
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
	build(); img.h.eh.e_ident[6] = 0; refused("identification version");
	build(); img.h.eh.e_ident[7] = 9; refused("OS ABI");
}

static void test_header_fields(void **state)
{
	(void)state;
	build(); img.h.eh.e_type = 3; refused("static executable");
	build(); img.h.eh.e_machine = 3; refused("wrong machine");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_ident),
		cmocka_unit_test(test_header_fields),
		cmocka_unit_test(test_segment_fields),
		cmocka_unit_test(test_entry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
