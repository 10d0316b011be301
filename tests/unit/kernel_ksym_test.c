/*
 * kernel_ksym_test.c - symbol lookups (kernel/ksym.c) over a small hand-made table
 * in the format tools/gen_ksyms.sh writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "kernel/klib.h"
#include "kernel/ksym.h"

struct ksym_entry { uint64_t addr, size; uint32_t name, flags; };

/* Sorted by address; names: "alpha\0beta\0gamma\0delta\0" */
const uint64_t __ksym_count = 4;
const struct ksym_entry __ksym_table[] = {
	{ 0xffffffff80100000UL, 0x40, 0, 1 },       /* alpha */
	{ 0xffffffff80100040UL, 0x10, 6, 1 },       /* beta */
	{ 0xffffffff80100100UL, 0x00, 11, 0 },      /* gamma: no size */
	{ 0xffffffff80200000UL, 0x20, 17, 0 },      /* delta */
};
const uint32_t __ksym_byname[] = { 0, 1, 3, 2 }; /* alpha beta delta gamma */
const char __ksym_names[] = "alpha\0beta\0gamma\0delta";

static void test_by_address(void **state)
{
	struct ksym s;

	(void)state;
	assert_true(ksym_lookup_addr(0xffffffff80100000UL, &s));
	assert_string_equal(s.ks_name, "alpha");
	assert_true(s.ks_func);
	assert_true(ksym_lookup_addr(0xffffffff8010003fUL, &s));
	assert_string_equal(s.ks_name, "alpha");
	assert_true(ksym_lookup_addr(0xffffffff80100040UL, &s));
	assert_string_equal(s.ks_name, "beta");
	assert_false(ksym_lookup_addr(0xffffffff80100050UL, &s));   /* gap after beta */
	assert_true(ksym_lookup_addr(0xffffffff80100100UL, &s));    /* sizeless: exact only */
	assert_string_equal(s.ks_name, "gamma");
	assert_false(ksym_lookup_addr(0xffffffff80100101UL, &s));
	assert_false(ksym_lookup_addr(0xffffffff800fffffUL, &s));   /* before all */
	assert_false(ksym_lookup_addr(0xffffffff80200020UL, &s));   /* after all */
}

static void test_by_name(void **state)
{
	struct ksym s;

	(void)state;
	assert_true(ksym_lookup_name("delta", &s));
	assert_true(s.ks_addr == 0xffffffff80200000UL);
	assert_false(s.ks_func);
	assert_true(ksym_lookup_name("gamma", &s));
	assert_true(ksym_lookup_name("alpha", &s));
	assert_false(ksym_lookup_name("alph", &s));
	assert_false(ksym_lookup_name("zeta", &s));
	assert_false(ksym_lookup_name("", &s));
}

static void test_format(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(ksym_format(0xffffffff80100044UL, buf, sizeof(buf)), "beta+0x4");
	assert_string_equal(ksym_format(0xffffffff80100000UL, buf, sizeof(buf)), "alpha+0x0");
	assert_string_equal(ksym_format(0x1234, buf, sizeof(buf)), "0x1234");
}

static void test_iterate(void **state)
{
	struct ksym s;

	(void)state;
	assert_int_equal(ksym_count(), 4);
	assert_true(ksym_get(3, &s));
	assert_string_equal(s.ks_name, "delta");
	assert_false(ksym_get(4, &s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_address),
		cmocka_unit_test(test_by_name),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_iterate),
	};
	return cmocka_run_group_tests_name("kernel ksym", tests, NULL, NULL);
}
