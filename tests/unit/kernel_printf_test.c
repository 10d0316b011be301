/*
 * kernel_printf_test.c - kvsnprintf against the C library's snprintf: each case
 * formats the same arguments both ways and compares.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "kernel/klib.h"

#define SAME(fmt, ...) do { \
	char a[128], b[128]; \
	int na = ksnprintf(a, sizeof(a), fmt, __VA_ARGS__); \
	int nb = snprintf(b, sizeof(b), fmt, __VA_ARGS__); \
	if (strcmp(a, b) != 0 || na != nb) \
		fail_msg("format \"%s\": got \"%s\" (%d), want \"%s\" (%d)", fmt, a, na, b, nb); \
} while (0)

static void test_integers(void **state)
{
	(void)state;
	SAME("%d", 0);
	SAME("%d", -1);
	SAME("%d|%i", 2147483647, -2147483647 - 1);
	SAME("%ld", -9223372036854775807L - 1);
	SAME("%lu", 18446744073709551615UL);
	SAME("%llu", 12345678901234ULL);
	SAME("%hhd %hhu", 300, 300);
	SAME("%hd %hu", 70000, 70000);
	SAME("%zu %zd", (size_t)42, (ssize_t)-42);
}

static void test_bases(void **state)
{
	(void)state;
	SAME("%x %X %o", 255u, 255u, 8u);
	SAME("%#x %#X %#o", 255u, 255u, 8u);
	SAME("%#x %#o", 0u, 0u);
	SAME("%lx", 0xffffffff80000000UL);
	SAME("%016lx", 0xdeadbeefUL);
	SAME("%p", (void *)0x1234);
}

static void test_width_precision(void **state)
{
	(void)state;
	SAME("[%5d][%-5d][%05d]", 42, 42, 42);
	SAME("[%+d][% d][%+d]", 5, 5, -5);
	SAME("[%.3d][%8.3d][%-8.3d]", 7, 7, 7);
	SAME("[%.0d][%5.0d]", 0, 0);
	SAME("[%*d][%-*d]", 6, 1, 6, 1);
	SAME("[%.*d]", 4, 3);
	SAME("[%010d]", -42);
	SAME("[%3s][%-3s][%.2s][%6.2s]", "abcd", "a", "abcd", "abcd");
	SAME("[%16lld]", 2LL);
	SAME("[%-33s]", "hello");
}

static void test_misc(void **state)
{
	(void)state;
	SAME("%c%c%%", 'o', 'k');
	SAME("%s", "");
	SAME("a%sb", "-");
	SAME("[%3c]", 'x');
}

static void test_truncation(void **state)
{
	char buf[5];

	(void)state;
	assert_int_equal(ksnprintf(buf, sizeof(buf), "%s", "abcdefgh"), 8);
	assert_string_equal(buf, "abcd");
	assert_int_equal(ksnprintf(buf, 0, "%d", 12345), 5);
	assert_int_equal(ksnprintf(buf, 1, "%d", 12345), 5);
	assert_string_equal(buf, "");
}

static void test_null_string(void **state)
{
	char buf[16];
	const char *volatile none = NULL;           /* hidden from gcc's format check */

	(void)state;
	ksnprintf(buf, sizeof(buf), "%s", none);
	assert_string_equal(buf, "(null)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_bases),
		cmocka_unit_test(test_width_precision),
		cmocka_unit_test(test_misc),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_null_string),
	};
	return cmocka_run_group_tests_name("kernel printf", tests, NULL, NULL);
}
