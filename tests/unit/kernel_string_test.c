/*
 * kernel_string_test.c - the kernel's own string helpers (kstrlcpy, kstrtou64).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "kernel/klib.h"

static void test_strlcpy(void **state)
{
	char buf[4];

	(void)state;
	assert_int_equal(kstrlcpy(buf, "ab", sizeof(buf)), 2);
	assert_string_equal(buf, "ab");
	assert_int_equal(kstrlcpy(buf, "abcdef", sizeof(buf)), 6);
	assert_string_equal(buf, "abc");
	assert_int_equal(kstrlcpy(buf, "", sizeof(buf)), 0);
	assert_string_equal(buf, "");
	buf[0] = 'z';
	assert_int_equal(kstrlcpy(buf, "abc", 0), 3);
	assert_int_equal(buf[0], 'z');
}

static void test_strtou64_ok(void **state)
{
	uint64_t v;

	(void)state;
	assert_true(kstrtou64("0", &v));
	assert_int_equal(v, 0);
	assert_true(kstrtou64("12345", &v));
	assert_int_equal(v, 12345);
	assert_true(kstrtou64("0x1F", &v));
	assert_int_equal(v, 31);
	assert_true(kstrtou64("18446744073709551615", &v));
	assert_true(v == UINT64_MAX);
	assert_true(kstrtou64("0xffffffff80000000", &v));
	assert_true(v == 0xffffffff80000000UL);
}

static void test_strtou64_rejects(void **state)
{
	uint64_t v = 77;

	(void)state;
	assert_false(kstrtou64("", &v));
	assert_false(kstrtou64("0x", &v));
	assert_false(kstrtou64("12a", &v));
	assert_false(kstrtou64("-1", &v));
	assert_false(kstrtou64("18446744073709551616", &v));
	assert_false(kstrtou64("0x10000000000000000", &v));
	assert_int_equal(v, 77);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strlcpy),
		cmocka_unit_test(test_strtou64_ok),
		cmocka_unit_test(test_strtou64_rejects),
	};
	return cmocka_run_group_tests_name("kernel string", tests, NULL, NULL);
}
