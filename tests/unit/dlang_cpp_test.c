/*
 * tests/unit/dlang_cpp_test.c: host unit tests of the -C preprocessor
 * (dlang/dt_cpp.c).  Each assertion preprocesses one small text and
 * compares the output (without its leading "#line 1") or the error, so a
 * failure names the construct: expansion, # and ##, conditionals, line
 * numbering, includes, and every error cpp reports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dlang/dt_cpp.h"

#define ARENA (1u << 20)
static char arena[ARENA];
static dt_cpp_error err;

/* Two files to include: "dir/a.h" and "lib/b.h". */
static bool fake_open(void *arg, const char *path, const char **data, size_t *len)
{
	static const char a[] = "#define A_VALUE 41\n#include \"deeper.h\"\n";
	static const char deeper[] = "#define DEEP 1\n";
	static const char b[] = "#define B_VALUE 2\nb_line\n";

	(void)arg;
	if (strcmp(path, "dir/a.h") == 0)
		*data = a, *len = sizeof(a) - 1;
	else if (strcmp(path, "dir/deeper.h") == 0)
		*data = deeper, *len = sizeof(deeper) - 1;
	else if (strcmp(path, "lib/b.h") == 0)
		*data = b, *len = sizeof(b) - 1;
	else
		return false;
	return true;
}

static int run(const char *src, const char *const *defs, uint32_t ndefs, uint32_t base,
               const char **out)
{
	static const char *const dirs[] = { "lib" };
	dt_cpp_opts o = { .co_defs = defs, .co_ndefs = ndefs, .co_dirs = dirs, .co_ndirs = 1,
	                  .co_open = fake_open, .co_line_base = base };
	char *text;
	size_t len;
	int rc = dt_cpp(src, strlen(src), "dir/x.d", &o, arena, sizeof(arena), &text, &len, &err);

	*out = rc == DT_CPP_OK ? text : NULL;
	return rc;
}

/* ASSERT_CPP(src, expected): expected is the output after the first "#line 1\n". */
#define ASSERT_CPP(src, expected) do {					\
	const char *out_;						\
	assert_int_equal(run(src, NULL, 0, 1, &out_), DT_CPP_OK);	\
	assert_string_equal(out_ + strlen("#line 1\n"), expected);	\
} while (0)

/* ASSERT_CPP_ERR(src, line, msg): fails at line with exactly msg. */
#define ASSERT_CPP_ERR(src, line, msg) do {				\
	const char *out_;						\
	assert_int_equal(run(src, NULL, 0, 1, &out_), DT_CPP_ERROR);	\
	assert_int_equal(err.ce_line, line);				\
	assert_string_equal(err.ce_msg, msg);				\
} while (0)

static void test_object_macros(void **state)
{
	(void)state;
	ASSERT_CPP("#define N 10\nx = N;\n", "\nx = 10;\n");
	ASSERT_CPP("#define N M\n#define M 3\nN\n", "\n\n3\n");
	ASSERT_CPP("#define f f + 1\nf\n", "\nf + 1\n");        /* not again inside itself */
	ASSERT_CPP("#define s 1\n\"s\" 's' 1s tick-1s\n", "\n\"s\" 's' 1s tick-1s\n");
	ASSERT_CPP("#define entry go\nfbt::f:entry\n", "\nfbt::f:go\n");
	ASSERT_CPP("#define N 1\n#undef N\nN\n", "\n\nN\n");
}

static void test_function_macros(void **state)
{
	(void)state;
	ASSERT_CPP("#define SQ(x) ((x)*(x))\nSQ(a+1)\n", "\n((a+1)*(a+1))\n");
	ASSERT_CPP("#define F(x) x\nF\n", "\nF\n");             /* no '(': not a call */
	ASSERT_CPP("#define F(a, b) b a\nF((1, 2), \"x,y\")\n", "\n\"x,y\" (1, 2)\n");
	ASSERT_CPP("#define S(x) #x\nS(a \"q\" b)\n", "\n\"a \\\"q\\\" b\"\n");
	ASSERT_CPP("#define C(a, b) a ## b\nC(x, 1)\n", "\nx1\n");
	ASSERT_CPP("#define P(fmt, ...) printf(fmt, __VA_ARGS__)\nP(\"%d %d\", 1, 2)\n",
	           "\nprintf(\"%d %d\", 1, 2)\n");
	ASSERT_CPP("#define N 4\n#define F(x) x + N\nF(N)\n", "\n\n4 + 4\n");
	ASSERT_CPP("#define E() 7\nE()\n", "\n7\n");
}

static void test_conditionals(void **state)
{
	(void)state;
	ASSERT_CPP("#if 1 + 2 * 3 == 7 && !0\na\n#else\nb\n#endif\n", "\na\n\n\n\n");
	ASSERT_CPP("#define X\n#ifdef X\na\n#endif\n#ifndef X\nb\n#endif\n",
	           "\n\na\n\n\n\n\n");
	ASSERT_CPP("#if 0\n#elif defined(Y)\na\n#elif defined Z || 1\nb\n#else\nc\n#endif\n",
	           "\n\n\n\nb\n\n\n\n");
	ASSERT_CPP("#if 0\n#if 1\na\n#endif\n#bogus\n#endif\n", "\n\n\n\n\n\n");
	ASSERT_CPP("#if (1 ? 2 : 3) == 2 && -1 < 0 && 0x10 == 16 && 010 == 8 && 'a' == 97\nok\n#endif\n",
	           "\nok\n\n");
	ASSERT_CPP("#if UNDEFINED_NAME\na\n#endif\n", "\n\n\n");
}

static void test_lines(void **state)
{
	const char *out;

	(void)state;
	ASSERT_CPP("a /* one\ntwo */ b\nc __LINE__\n", "a   b\n\nc 3\n");
	ASSERT_CPP("#define L(x) x \\\n + 1\nL(2) __LINE__\n", "\n\n2 + 1 3\n");
	ASSERT_CPP("#line 20\n__LINE__\n", "\n20\n");
	ASSERT_CPP("#!/usr/sbin/dtrace -Cs\nx\n", "\nx\n");
	ASSERT_CPP("#pragma D option quiet\n", "#pragma D option quiet\n");
	ASSERT_CPP("__FILE__\n", "\"dir/x.d\"\n");
	/* an include's lines carry the #include's line; the next line is numbered again */
	assert_int_equal(run("a\n#include \"a.h\"\nz\n", NULL, 0, 10, &out), DT_CPP_OK);
	assert_string_equal(out, "#line 10\na\n#line 11\n\nz\n");
	assert_int_equal(run("#include <b.h>\nz __LINE__\n", NULL, 0, 5, &out), DT_CPP_OK);
	assert_string_equal(out, "#line 5\nb_line\n#line 5\n\nz 2\n");
}

static void test_includes_and_defines(void **state)
{
	static const char *const defs[] = { "DV=5", "DN", "DGONE", "UGONE" };
	const char *out;

	(void)state;
	ASSERT_CPP("#include \"a.h\"\nA_VALUE DEEP\n", "\n41 1\n");
	ASSERT_CPP("#include <b.h>\nB_VALUE\n", "b_line\n#line 1\n\n2\n");
	assert_int_equal(run("V N GONE\n", defs, 4, 1, &out), DT_CPP_OK);
	assert_string_equal(out, "#line 1\n5 1 GONE\n");
	ASSERT_CPP("__SUNW_D\n", "1\n");
}

static void test_errors(void **state)
{
	(void)state;
	ASSERT_CPP_ERR("a\n#error stop  here \n", 2, "#error stop  here");
	ASSERT_CPP_ERR("#include \"none.h\"\n", 1, "none.h: No such file or directory");
	assert_string_equal(err.ce_kind, "fatal error");
	ASSERT_CPP_ERR("#include <a.h>\n", 1, "a.h: No such file or directory");  /* not beside */
	ASSERT_CPP_ERR("#include x\n", 1, "#include expects \"FILENAME\" or <FILENAME>");
	ASSERT_CPP_ERR("\n#if 1\n", 2, "unterminated #if");
	ASSERT_CPP_ERR("#endif\n", 1, "#endif without #if");
	ASSERT_CPP_ERR("#else\n", 1, "#else without #if");
	ASSERT_CPP_ERR("#if 1\n#else\n#elif 1\n#endif\n", 3, "#elif after #else");
	ASSERT_CPP_ERR("#if 1 / 0\n#endif\n", 1, "division by zero in #if");
	ASSERT_CPP_ERR("#if (1\n#endif\n", 1, "missing ')' in expression");
	ASSERT_CPP_ERR("#if\n#endif\n", 1, "#if with no expression");
	ASSERT_CPP_ERR("#if ((((((((((((((1))))))))))))))\n#endif\n", 1,
	               "#if expression nested too deeply (the limit is 12 levels)");
	ASSERT_CPP_ERR("#define\n", 1, "no macro name given in #define directive");
	ASSERT_CPP_ERR("#define 3 x\n", 1, "macro names must be identifiers");
	ASSERT_CPP_ERR("#define F(a) a\nF(1, 2)\n", 2, "macro \"F\" passed more arguments than it takes");
	ASSERT_CPP_ERR("#define F(a, b) a\nF(1)\n", 2, "macro \"F\" requires more arguments than given");
	ASSERT_CPP_ERR("#define F(a) a\nF(1\n", 2, "unterminated argument list invoking macro \"F\"");
	ASSERT_CPP_ERR("/* never closed\n\n", 1, "unterminated comment");
	ASSERT_CPP_ERR("#frob\n", 1, "invalid preprocessing directive #frob");
}

static void test_small_arena(void **state)
{
	static char tiny[512];
	dt_cpp_opts o = { .co_open = fake_open };
	char *text;
	size_t len;
	const char *src = "#define A aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
	                  "A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A\n";

	(void)state;
	assert_int_equal(dt_cpp(src, strlen(src), "x.d", &o, tiny, sizeof(tiny), &text, &len, &err),
	                 DT_CPP_NOMEM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_object_macros),
		cmocka_unit_test(test_function_macros),
		cmocka_unit_test(test_conditionals),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_includes_and_defines),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_small_arena),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
