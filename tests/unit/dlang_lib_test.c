/*
 * tests/unit/dlang_lib_test.c: host unit tests of the D library
 * (dlang/dt_lib.c) and of the compiler limits it came with.
 *
 *   - library files compiled before the program: their inlines, types and
 *     translators are the program's; redeclaring one is D_DECL_IDRED;
 *   - an error in a library file names the file (dt_error.de_file) and a
 *     line of that file; a probe clause in a library is D_SYNTAX;
 *   - "#pragma D depends_on library" orders the files (D_PRAGMA_DEPEND);
 *   - only a library inline may hide a built-in variable, and inside its
 *     own body the name is the built-in (run on DIF's host model: pid 42);
 *   - long left-associative chains (1000 terms) compile and run;
 *   - a 1 MiB script of small clauses fits a 64 MiB arena.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dlang/dt.h"
#include "tests/dif/dif_hostenv.h"

#define ARENA (64u << 20)
static uint8_t arena[ARENA];
static struct dif_hostenv henv;
static uint8_t scratch[1 << 16];

static int
compile_with(const char *lib, const char *src, dt_prog **p, dt_error *e)
{
	dt_libsrc ls = { "/usr/lib/dtrace/t.d", lib, lib == NULL ? 0 :
	    strlen(lib) };
	dt_opts o;
	memset(&o, 0, sizeof (o));
	o.o_target = -1;
	o.o_libs = lib == NULL ? NULL : &ls;
	o.o_nlibs = lib == NULL ? 0 : 1;
	return (dt_compile(src, strlen(src), &o, arena, ARENA, p, e));
}

/* Run clause 0's last action's DIF on the host model. */
static int64_t
run_last(const dt_prog *p)
{
	dif_state_t st;
	uint64_t v = 0;
	dif_hostenv_init(&henv);
	dif_state_init(&st, &henv.env, scratch, sizeof (scratch), 0);
	const dt_clause *cl = &p->dp_clauses[0];
	for (uint32_t a = 0; a < cl->cl_nacts; a++)
		for (uint32_t i = 0; i < cl->cl_acts[a].ac_nargs; i++)
			assert_int_equal(dif_emulate(cl->cl_acts[a].ac_args[i],
			    &st, &v), 0);
	return ((int64_t)v);
}

static void
test_lib_defines(void **state)
{
	(void)state;
	dt_prog *p;
	dt_error e;
	const char *lib = "inline int SEVEN = 7;\n"
	    "typedef struct pair { int a; int b; } pair_t;\n";
	assert_int_equal(compile_with(lib, "BEGIN { trace(SEVEN * "
	    "sizeof (pair_t)); }", &p, &e), 0);
	assert_int_equal(run_last(p), 56);
	assert_int_equal(compile_with(lib, "inline int SEVEN = 8;\n"
	    "BEGIN { }", &p, &e), -1);
	assert_string_equal(e.de_tag, "D_DECL_IDRED");
	assert_null(e.de_file);			/* the program's error */
	assert_int_equal(compile_with(lib, "int pair_t;\nBEGIN { }", &p, &e),
	    -1);
	assert_string_equal(e.de_tag, "D_DECL_IDRED");
	/* an empty library, and a library of only comments, are fine */
	assert_int_equal(compile_with("", "BEGIN { }", &p, &e), 0);
	assert_int_equal(compile_with("/* nothing */\n", "BEGIN { }", &p, &e),
	    0);
}

static void
test_lib_errors(void **state)
{
	(void)state;
	dt_prog *p;
	dt_error e;
	assert_int_equal(compile_with("inline int A = 1;\ninline int B = "
	    "nosuch;\n", "BEGIN { }", &p, &e), -1);
	assert_string_equal(e.de_tag, "D_IDENT_UNDEF");
	assert_string_equal(e.de_file, "/usr/lib/dtrace/t.d");
	assert_int_equal(e.de_line, 2);
	assert_int_equal(compile_with("BEGIN { trace(1); }\n", "BEGIN { }",
	    &p, &e), -1);
	assert_string_equal(e.de_tag, "D_SYNTAX");
	assert_non_null(e.de_file);
}

/* Two library files, a.d needing b.d: b.d is compiled first. */
static void
test_lib_depends(void **state)
{
	(void)state;
	dt_prog *p;
	dt_error e;
	dt_libsrc ls[2] = {
		{ "/lib/a.d", "#pragma D depends_on library b.d\n"
		    "inline int A = B + 1;\n", 0 },
		{ "/lib/b.d", "inline int B = 41;\n", 0 },
	};
	ls[0].ls_len = strlen(ls[0].ls_src);
	ls[1].ls_len = strlen(ls[1].ls_src);
	dt_opts o;
	memset(&o, 0, sizeof (o));
	o.o_target = -1;
	o.o_libs = ls;
	o.o_nlibs = 2;
	const char *src = "BEGIN { trace(A); }";
	assert_int_equal(dt_compile(src, strlen(src), &o, arena, ARENA, &p,
	    &e), 0);
	assert_int_equal(run_last(p), 42);
	ls[1].ls_name = "/lib/c.d";		/* b.d is missing now */
	assert_int_equal(dt_compile(src, strlen(src), &o, arena, ARENA, &p,
	    &e), -1);
	assert_string_equal(e.de_tag, "D_PRAGMA_DEPEND");
	assert_string_equal(e.de_file, "/lib/a.d");
}

static void
test_lib_hides_builtin(void **state)
{
	(void)state;
	dt_prog *p;
	dt_error e;
	/* a program may not redefine a built-in; a library may */
	assert_int_equal(compile_with(NULL, "inline int pid = 1;\nBEGIN { }",
	    &p, &e), -1);
	assert_string_equal(e.de_tag, "D_DECL_IDRED");
	assert_int_equal(compile_with("inline int pid = pid + 1000;\n",
	    "BEGIN { trace(pid); }", &p, &e), 0);
	assert_int_equal(run_last(p), 42 + 1000);
	/* twice in one expression: each use is the inline */
	assert_int_equal(compile_with("inline int pid = pid + 1000;\n",
	    "BEGIN { trace(pid + pid); }", &p, &e), 0);
	assert_int_equal(run_last(p), 2 * 1042);
}

static void
test_long_chains(void **state)
{
	(void)state;
	dt_prog *p;
	dt_error e;
	static char src[1 << 16];
	size_t n = (size_t)snprintf(src, sizeof (src), "BEGIN { x = 1; "
	    "trace(x");
	for (int i = 1; i < 1000; i++)
		n += (size_t)snprintf(src + n, sizeof (src) - n, " + x");
	snprintf(src + n, sizeof (src) - n, "); }");
	assert_int_equal(compile_with(NULL, src, &p, &e), 0);
	assert_int_equal(run_last(p), 1000);
	n = (size_t)snprintf(src, sizeof (src), "BEGIN { x = 0; trace(x");
	for (int i = 1; i < 1000; i++)
		n += (size_t)snprintf(src + n, sizeof (src) - n,
		    " || x == %d", i == 999 ? 0 : i);
	snprintf(src + n, sizeof (src) - n, "); }");
	assert_int_equal(compile_with(NULL, src, &p, &e), 0);
	assert_int_equal(run_last(p), 1);
}

static void
test_big_script(void **state)
{
	(void)state;
	dt_prog *p;
	dt_error e;
	size_t cap = (1u << 20) + 256, n = 0;
	char *src = malloc(cap);
	for (int i = 0; n < (1u << 20); i++)
		n += (size_t)snprintf(src + n, cap - n, "BEGIN { x%d = %d; "
		    "trace(x%d + 1); }\n", i, i, i);
	assert_int_equal(dt_compile(src, n, NULL, arena, ARENA, &p, &e), 0);
	fprintf(stderr, "arena: %zu bytes for a %zu-byte script of %u "
	    "clauses\n", p->dp_arena_used, n, p->dp_nclauses);
	free(src);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lib_defines),
		cmocka_unit_test(test_lib_errors),
		cmocka_unit_test(test_lib_depends),
		cmocka_unit_test(test_lib_hides_builtin),
		cmocka_unit_test(test_long_chains),
		cmocka_unit_test(test_big_script),
	};
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
