/*
 * tests/unit/dlang_options_test.c: host unit tests of DTrace's option table
 * (dlang/dt_options.c): names, value syntax and libdtrace's errors, and
 * #pragma D option's messages.  Each assertion names one option and value.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dlang/dt.h"

#define ARENA (4u << 20)
static uint8_t arena[ARENA];

/* ASSERT_OPT(err, num, name, value): dt_option_parse's result and number. */
#define ASSERT_OPT(err, num, name, value) do {				\
	dt_optval v_;							\
	assert_int_equal(dt_option_parse(name, value, &v_), err);	\
	if ((err) == DT_OPT_OK)						\
		assert_int_equal(v_.ov_num, num);			\
} while (0)

static void
test_sizes(void **state)
{
	(void)state;
	ASSERT_OPT(DT_OPT_OK, 4096, "bufsize", "4096");
	ASSERT_OPT(DT_OPT_OK, 4096, "bufsize", "4k");
	ASSERT_OPT(DT_OPT_OK, 2u << 20, "aggsize", "2M");
	ASSERT_OPT(DT_OPT_OK, 1ull << 30, "dynvarsize", "1g");
	ASSERT_OPT(DT_OPT_OK, 1ull << 40, "specsize", "1t");
	ASSERT_OPT(DT_OPT_OK, 256, "strsize", "0x100");
	ASSERT_OPT(DT_OPT_BADVAL, 0, "bufsize", "4q");
	ASSERT_OPT(DT_OPT_BADVAL, 0, "bufsize", "k");
	ASSERT_OPT(DT_OPT_BADVAL, 0, "bufsize", "4kk");
	ASSERT_OPT(DT_OPT_BADVAL, 0, "bufsize", NULL);
	ASSERT_OPT(DT_OPT_BADVAL, 0, "bufsize", "99999999999999999999");
}

static void
test_times(void **state)
{
	(void)state;
	ASSERT_OPT(DT_OPT_OK, 10, "switchrate", "10");		/* no unit: ns */
	ASSERT_OPT(DT_OPT_OK, 100000000, "switchrate", "10hz");
	ASSERT_OPT(DT_OPT_OK, 5000000, "aggrate", "5ms");
	ASSERT_OPT(DT_OPT_OK, 2000000000, "statusrate", "2sec");
	ASSERT_OPT(DT_OPT_OK, 60000000000ull, "cleanrate", "1min");
	ASSERT_OPT(DT_OPT_OK, 3000, "switchrate", "3us");
	ASSERT_OPT(DT_OPT_BADVAL, 0, "switchrate", "10parsecs");
	ASSERT_OPT(DT_OPT_BADVAL, 0, "switchrate", "fast");
}

static void
test_flags_and_words(void **state)
{
	dt_optval v;
	(void)state;
	assert_int_equal(dt_option_parse("quiet", NULL, &v), DT_OPT_OK);
	assert_true(v.ov_set);
	assert_int_equal(dt_option_parse("quiet", "no", &v), DT_OPT_OK);
	assert_false(v.ov_set);
	assert_int_equal(dt_option_parse("flowindent", "Enabled", &v), DT_OPT_OK);
	assert_true(v.ov_set);
	ASSERT_OPT(DT_OPT_BADVAL, 0, "rawbytes", "maybe");
	ASSERT_OPT(DT_OPT_OK, 0, "defaultargs", NULL);
	ASSERT_OPT(DT_OPT_BADVAL, 0, "defaultargs", "1");	/* a compiler flag */
	ASSERT_OPT(DT_OPT_OK, 2, "bufpolicy", "ring");
	ASSERT_OPT(DT_OPT_BADVAL, 0, "bufpolicy", "circular");
	ASSERT_OPT(DT_OPT_OK, 3, "cpu", "3");
	ASSERT_OPT(DT_OPT_BADVAL, 0, "cpu", "3k");
	ASSERT_OPT(DT_OPT_BADNAME, 0, "nosuchopt", "1");
}

static void
test_versions(void **state)
{
	(void)state;
	ASSERT_OPT(DT_OPT_OK, 1u << 24, "version", "1.0");
	ASSERT_OPT(DT_OPT_OK, 1u << 24 | 6u << 12 | 2, "version", "1.6.2");
	ASSERT_OPT(DT_OPT_VERSUNDEF, 0, "version", "9.9");
	ASSERT_OPT(DT_OPT_VERSINVAL, 0, "version", "one");
	ASSERT_OPT(DT_OPT_BADVAL, 0, "version", NULL);
	assert_string_equal(dt_option_errmsg(DT_OPT_BADNAME), "Invalid option name");
}

/* pragma_error: the message of compiling src, which must fail. */
static const char *
pragma_error(const char *src, dt_error *e)
{
	dt_prog *p;
	assert_int_not_equal(dt_compile(src, strlen(src), NULL, arena, ARENA, &p, e), 0);
	assert_string_equal(e->de_tag, "D_PRAGMA_OPTSET");
	return (e->de_msg);
}

static void
test_pragma_messages(void **state)
{
	dt_error e;
	(void)state;
	assert_string_equal(pragma_error("#pragma D option nosuch=1\n", &e),
	    "failed to set option 'nosuch' to '1': Invalid option name");
	assert_string_equal(pragma_error("#pragma D option bufpolicy\n", &e),
	    "failed to set option 'bufpolicy': Invalid value for specified option");
	assert_string_equal(pragma_error("#pragma D option version=2.0\n", &e),
	    "failed to set option 'version' to '2.0': Requested version is not "
	    "supported by compiler");
	assert_string_equal(pragma_error("#pragma D option version=1.0\n"
	    "#pragma D option version=1.1\n", &e),
	    "failed to set option 'version' to '1.1': Requested version "
	    "conflicts with earlier setting");
}

/* compile_with: compile src bound to version vers (0: the newest); 0 or -1, *e. */
static int
compile_with(const char *src, uint32_t vers, dt_error *e)
{
	dt_opts o;
	dt_prog *p;
	memset(&o, 0, sizeof (o));
	o.o_target = -1;
	o.o_version = vers;
	return (dt_compile(src, strlen(src), &o, arena, ARENA, &p, e));
}

/* A version binding hides the functions introduced after it; names are then free. */
static void
test_version_binding(void **state)
{
	const char *call = "BEGIN { trace(substr(\"abc\", 1)); }";
	dt_error e;
	(void)state;
	assert_int_equal(compile_with(call, 0, &e), 0);
	assert_int_equal(compile_with(call, DT_VERSION_NUMBER(1, 1, 0), &e), 0);
	assert_int_equal(compile_with(call, DT_VERSION_NUMBER(1, 0, 0), &e), -1);
	assert_string_equal(e.de_tag, "D_FUNC_UNDEF");
	assert_string_equal(e.de_msg, "undefined function name: substr");
	assert_int_equal(compile_with("BEGIN { toupper = 1; trace(toupper); }",
	    DT_VERSION_NUMBER(1, 7, 0), &e), 0);
	assert_int_equal(compile_with("#pragma D option version=1.7\n"
	    "BEGIN { trace(toupper(\"a\")); }", 0, &e), -1);
	assert_string_equal(e.de_tag, "D_FUNC_UNDEF");
	assert_int_equal(compile_with("BEGIN { trace(strlen(\"a\")); }",
	    DT_VERSION_NUMBER(1, 0, 0), &e), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_flags_and_words),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_pragma_messages),
		cmocka_unit_test(test_version_binding),
	};
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
