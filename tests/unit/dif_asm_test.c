/*
 * tests/unit/dif_asm_test.c: the assembler and disassembler: exact text of
 * a listing, error messages with line numbers, the index forms used when a
 * value is ambiguous, snprintf-like truncation, and escapes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dif/dif.h"

static dif_instr_t insns[256];
static uint64_t ints[64];
static char strs[1024];
static dif_var_t vars[16];
static dif_asmbuf_t ab = { insns, 256, ints, 64, strs, 1024, vars, 16 };
static char err[128], text[4096];

static int assemble(const char *src, dif_difo_t *d)
{
	return dif_asm(src, strlen(src), &ab, d, err, sizeof(err));
}

static void test_listing_exact(void **state)
{
	dif_difo_t d;
	const char *want =
	    ".rtype i64\n"
	    ".str \"n\"\n"                       /* the variable's name */
	    ".str \"hi\"\n"
	    ".int 100\n"
	    ".var n 0x500 thread scalar u32\n"
	    "\tldgs arg0, %r1\n"
	    "\tsetx 100, %r2\n"
	    "\tcmp %r1, %r2\n"
	    "\tble L6\n"
	    "\tldts n, %r3\n"
	    "\tsets \"hi\", %r4\n"
	    "L6:\n"
	    "\tret %r0\n";

	(void)state;
	assert_int_equal(assemble(
	    ".var n 0x500 thread scalar u32\n"
	    "  ldgs arg0, %r1   ; first argument\n"
	    "# a comment line\n"
	    "  setx 100, %r2\n"
	    "  cmp %r1, %r2\n"
	    "  ble out\n"
	    "  ldts n, %r3\n"
	    "  sets \"hi\", %r4\n"
	    "out: ret %r0\n", &d), 0);
	assert_int_equal(d.dd_ninsns, 7);
	assert_int_equal(dif_disasm(&d, text, sizeof(text)), strlen(want));
	assert_string_equal(text, want);
	assert_int_equal(d.dd_insns[3], DIF_INSTR_BRANCH(DIF_OP_BLE, 6));
}

static void test_errors_have_line_numbers(void **state)
{
	dif_difo_t d;

	(void)state;
	assert_int_equal(assemble("nop\nfrobnicate %r1\n", &d), -1);
	assert_string_equal(err, "line 2: unknown instruction");
	assert_int_equal(assemble("ba nowhere\nret %r0\n", &d), -1);
	assert_string_equal(err, "line 1: undefined label");
	assert_int_equal(assemble("add %r1, %r2\n", &d), -1);
	assert_string_equal(err, "line 1: expected ','");
	assert_int_equal(assemble("ret %r1 %r2\n", &d), -1);
	assert_string_equal(err, "line 1: junk at end of line");
	assert_int_equal(assemble("ldgs nosuchvar, %r1\n", &d), -1);
	assert_string_equal(err, "line 1: unknown variable");
}

/* Duplicate table entries need the index forms to round-trip exactly. */
static void test_index_forms(void **state)
{
	dif_difo_t d;

	(void)state;
	assert_int_equal(assemble(".int 5\n.int 5\n.str \"ab\"\n.str \"ab\"\n"
	                          "setx #1, %r1\nsets @3, %r2\nsets @1, %r3\nret %r1\n",
	                          &d), 0);
	dif_disasm(&d, text, sizeof(text));
	assert_non_null(strstr(text, "\tsetx #1, %r1\n"));
	assert_non_null(strstr(text, "\tsets @3, %r2\n"));
	assert_non_null(strstr(text, "\tsets \"b\", %r3\n"));  /* suffix of "ab" */
}

static void test_word_for_malformed(void **state)
{
	dif_instr_t p[] = { DIF_INSTR_MAKE(DIF_OP_RET, 1, 0, 0), 0xee000000u };
	dif_difo_t d = { .dd_insns = p, .dd_ninsns = 2 };

	(void)state;
	dif_disasm_insn(&d, 0, text, sizeof(text));
	assert_string_equal(text, ".word 0x45010000");
	dif_disasm_insn(&d, 1, text, sizeof(text));
	assert_string_equal(text, ".word 0xee000000");
}

static void test_truncation_like_snprintf(void **state)
{
	dif_instr_t p[] = { DIF_INSTR_RET(3) };
	dif_difo_t d = { .dd_insns = p, .dd_ninsns = 1,
	                 .dd_rtype = { DIF_TYPE_INT, DIF_TF_SIGNED, 0, 8 } };
	char small[8];
	size_t n = dif_disasm(&d, NULL, 0);

	(void)state;
	assert_int_equal(n, strlen(".rtype i64\n\tret %r3\n"));
	assert_int_equal(dif_disasm(&d, small, sizeof(small)), n);
	assert_string_equal(small, ".rtype ");
}

static void test_string_escapes(void **state)
{
	dif_difo_t d;

	(void)state;
	assert_int_equal(assemble("sets \"a\\\"b\\\\c\\n\\x01;\", %r1\nret %r1\n", &d), 0);
	assert_memory_equal(d.dd_strtab, "a\"b\\c\n\x01;", 9);
	dif_disasm(&d, text, sizeof(text));
	assert_non_null(strstr(text, ".str \"a\\\"b\\\\c\\n\\x01;\"\n"));
}

static void test_types_and_vars(void **state)
{
	dif_difo_t d;

	(void)state;
	assert_int_equal(assemble(".rtype string:64\n"
	                          ".var s 0x501 global array blob:24 flags=3\n"
	                          "ret %r0\n", &d), 0);
	assert_int_equal(d.dd_rtype.dt_kind, DIF_TYPE_STRING);
	assert_int_equal(d.dd_rtype.dt_size, 64);
	assert_int_equal(d.dd_nvars, 1);
	assert_int_equal(d.dd_vartab[0].dv_kind, DIF_VKIND_ARRAY);
	assert_int_equal(d.dd_vartab[0].dv_type.dt_kind, DIF_TYPE_BLOB);
	assert_int_equal(d.dd_vartab[0].dv_type.dt_size, 24);
	assert_int_equal(d.dd_vartab[0].dv_flags, 3);
	dif_disasm(&d, text, sizeof(text));
	assert_non_null(strstr(text, ".var s 0x501 global array blob:24 flags=3\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listing_exact),
		cmocka_unit_test(test_errors_have_line_numbers),
		cmocka_unit_test(test_index_forms),
		cmocka_unit_test(test_word_for_malformed),
		cmocka_unit_test(test_truncation_like_snprintf),
		cmocka_unit_test(test_string_escapes),
		cmocka_unit_test(test_types_and_vars),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
