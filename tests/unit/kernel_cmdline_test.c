/*
 * kernel_cmdline_test.c - the kernel command line parser (kernel/cmdline.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "kernel/boot.h"
#include "kernel/klib.h"

static void test_flags(void **state)
{
	(void)state;
	assert_true(cmdline_get("selftest", "selftest", NULL, 0));
	assert_true(cmdline_get("a b selftest", "selftest", NULL, 0));
	assert_false(cmdline_get("selftests", "selftest", NULL, 0));
	assert_false(cmdline_get("", "selftest", NULL, 0));
	assert_false(cmdline_get("cmd=selftest", "selftest", NULL, 0));
}

static void test_values(void **state)
{
	char buf[32];

	(void)state;
	assert_true(cmdline_get("x=1 cmd=ps", "cmd", buf, sizeof(buf)));
	assert_string_equal(buf, "ps");
	assert_true(cmdline_get("cmd=\"run spin 10; ps\" y", "cmd", buf, sizeof(buf)));
	assert_string_equal(buf, "run spin 10; ps");
	assert_true(cmdline_get("cmd='echo \"hi\"'", "cmd", buf, sizeof(buf)));
	assert_string_equal(buf, "echo \"hi\"");
	assert_true(cmdline_get("cmd=\"a\\\"b\"", "cmd", buf, sizeof(buf)));
	assert_string_equal(buf, "a\"b");
	assert_true(cmdline_get("cmd=", "cmd", buf, sizeof(buf)));
	assert_string_equal(buf, "");
	assert_true(cmdline_get("flag", "flag", buf, sizeof(buf)));
	assert_string_equal(buf, "");
	strcpy(buf, "stale");
	assert_true(cmdline_get("flag cmd=ps", "flag", buf, sizeof(buf)));
	assert_string_equal(buf, "");
}

static void test_skips_quoted_words(void **state)
{
	char buf[32];

	(void)state;
	/* "cmd=" inside another word's quotes is not a key. */
	assert_false(cmdline_get("x=\"cmd=bad\"", "cmd", buf, sizeof(buf)));
	assert_true(cmdline_get("x=\"a cmd=bad\" cmd=good", "cmd", buf, sizeof(buf)));
	assert_string_equal(buf, "good");
}

static void test_truncates_and_unterminated(void **state)
{
	char buf[4];

	(void)state;
	assert_true(cmdline_get("cmd=abcdefgh", "cmd", buf, sizeof(buf)));
	assert_string_equal(buf, "abc");
	assert_true(cmdline_get("cmd=\"ab", "cmd", buf, sizeof(buf)));
	assert_string_equal(buf, "ab");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_skips_quoted_words),
		cmocka_unit_test(test_truncates_and_unterminated),
	};
	return cmocka_run_group_tests_name("kernel cmdline", tests, NULL, NULL);
}
