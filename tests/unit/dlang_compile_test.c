/*
 * tests/unit/dlang_compile_test.c: host unit tests of the D compiler.
 *
 * Four groups, each a list of small self-describing assertions:
 *   - expression semantics: ASSERT_D(expected, "D expression") compiles
 *     "BEGIN { ...; trace(expr); }", validates and runs every action's DIF
 *     in order on DIF's host model (tests/dif/dif_hostenv.c: pid = 42,
 *     tid = 7, execname = "sonde-test", ...) and checks the traced value;
 *   - the program object (probes, actions, aggregations, formats, options);
 *   - errors: tag, line, column and DTrace's exact message text;
 *   - robustness: small arenas, unterminated input, deep nesting.
 */
#define _GNU_SOURCE
#include <pthread.h>
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

#define ARENA (8u << 20)
static uint8_t arena[ARENA];

static dt_prog *
compile_ok(const char *src)
{
	dt_prog *p = NULL;
	dt_error e;
	if (dt_compile(src, strlen(src), NULL, arena, ARENA, &p, &e) != 0) {
		fprintf(stderr, "unexpected error: %s: line %u: %s\nsource: %s\n",
		    e.de_tag, e.de_line, e.de_msg, src);
		fail();
	}
	return (p);
}

static dt_error
compile_err(const char *src)
{
	dt_prog *p;
	dt_error e;
	if (dt_compile(src, strlen(src), NULL, arena, ARENA, &p, &e) == 0) {
		fprintf(stderr, "compiled unexpectedly: %s\n", src);
		fail();
	}
	return (e);
}

/* ---- running compiled DIF on the host model ---- */

static struct dif_hostenv henv;
static uint8_t scratch[1 << 16];

/* Run every action of clause 0; return the value of the last one. */
static uint64_t
run_last(const dt_prog *p, dif_state_t *st, const dif_difo_t **lastp)
{
	uint64_t v = 0;
	const dt_clause *cl = &p->dp_clauses[0];
	for (uint32_t a = 0; a < cl->cl_nacts; a++) {
		for (uint32_t i = 0; i < cl->cl_acts[a].ac_nargs; i++) {
			const dif_difo_t *d = cl->cl_acts[a].ac_args[i];
			assert_int_equal(dif_validate(d, DIF_VF_DESTRUCTIVE |
			    DIF_VF_USER, NULL, NULL), 0);
			int f = dif_emulate(d, st, &v);
			if (f != 0) {
				fprintf(stderr, "fault %d at pc %u\n", f,
				    st->ds_fault.df_pc);
				fail();
			}
			*lastp = d;
		}
	}
	return (v);
}

static uint64_t
eval(const char *stmts, const char *expr, dif_state_t *st,
    const dif_difo_t **lastp)
{
	static char src[4096];
	snprintf(src, sizeof (src), "BEGIN { %s trace(%s); }", stmts, expr);
	dt_prog *p = compile_ok(src);
	dif_hostenv_init(&henv);
	dif_state_init(st, &henv.env, scratch, sizeof (scratch), 0);
	st->ds_args[0] = 100;
	st->ds_args[1] = (uint64_t)-5;
	return (run_last(p, st, lastp));
}

static void
assert_d(int64_t want, const char *stmts, const char *expr, int line)
{
	dif_state_t st;
	const dif_difo_t *d;
	int64_t got = (int64_t)eval(stmts, expr, &st, &d);
	if (got != want) {
		fprintf(stderr, "line %d: %s => %lld, want %lld\n", line, expr,
		    (long long)got, (long long)want);
		fail();
	}
}

static void
assert_s(const char *want, const char *stmts, const char *expr, int line)
{
	dif_state_t st;
	const dif_difo_t *d;
	uint64_t v = eval(stmts, expr, &st, &d);
	char buf[512];
	assert_true(dif_hostenv_string(&henv, v, buf, sizeof (buf), &st, d));
	if (strcmp(buf, want) != 0) {
		fprintf(stderr, "line %d: %s => \"%s\", want \"%s\"\n", line,
		    expr, buf, want);
		fail();
	}
}

#define ASSERT_D(want, expr) assert_d((want), "", (expr), __LINE__)
#define ASSERT_DS(want, stmts, expr) assert_d((want), (stmts), (expr), __LINE__)
#define ASSERT_S(want, expr) assert_s((want), "", (expr), __LINE__)

static void
test_arith(void **state)
{
	(void)state;
	ASSERT_D(42, "pid");
	ASSERT_D(49, "pid + tid");
	ASSERT_D(7, "1 + 2 * 3");
	ASSERT_D(9, "(1 + 2) * 3");
	ASSERT_D(-42, "-pid");
	ASSERT_D(6, "pid / tid");
	ASSERT_D(0, "pid % tid");
	ASSERT_D(-3, "-7 / 2");
	ASSERT_D(-1, "-7 % 2");
	ASSERT_D(-20, "-pid / 2 + 1");
	ASSERT_D(0x2a00, "pid << 8");
	ASSERT_D(10, "pid >> 2");
	ASSERT_D(-2, "arg1 >> 2");
	ASSERT_D(42 & 7, "pid & tid");
	ASSERT_D(42 | 7, "pid | tid");
	ASSERT_D(42 ^ 7, "pid ^ tid");
	ASSERT_D(~42, "~pid");
	ASSERT_D(100, "arg0");
	ASSERT_D(-5, "args[1]");
	ASSERT_D(-2147483648LL, "0x7fffffff + 1");
	ASSERT_D(4, "sizeof (int)");
	ASSERT_D(8, "sizeof (pid + 1L)");
}

static void
test_logic(void **state)
{
	(void)state;
	ASSERT_D(1, "pid > tid");
	ASSERT_D(0, "pid < tid");
	ASSERT_D(1, "pid >= 42");
	ASSERT_D(1, "pid <= 42");
	ASSERT_D(1, "pid == 42");
	ASSERT_D(0, "pid != 42");
	ASSERT_D(1, "arg1 < 0");
	ASSERT_D(0, "(uint64_t)arg1 < 0");
	ASSERT_D(1, "pid && tid");
	ASSERT_D(0, "pid && 0");
	ASSERT_D(1, "0 || tid");
	ASSERT_D(0, "pid ^^ tid");
	ASSERT_D(1, "pid ^^ 0");
	ASSERT_D(0, "!pid");
	ASSERT_D(1, "!!pid");
	ASSERT_D(7, "pid > 100 ? pid : tid");
	ASSERT_D(42, "pid > 1 ? pid : tid");
	ASSERT_D(1, "1 < 2 == 1");
	ASSERT_D(1, "execname == \"sonde-test\"");
	ASSERT_D(1, "execname < \"z\"");
	ASSERT_D(0, "probefunc != \"kmem_alloc\"");
}

static void
test_vars(void **state)
{
	(void)state;
	ASSERT_DS(5, "x = 2; x += 3;", "x");
	ASSERT_DS(3, "x = 2;", "++x");
	ASSERT_DS(2, "x = 2;", "x++");
	ASSERT_DS(1, "x = 2; x--;", "x");
	ASSERT_DS(84, "self->v = pid * 2;", "self->v");
	ASSERT_DS(10, "this->t = 10;", "this->t");
	ASSERT_DS(9, "a[1, \"k\"] = 9;", "a[1, \"k\"]");
	ASSERT_DS(0, "a[1, \"k\"] = 9;", "a[2, \"k\"]");
	ASSERT_DS(3, "x = 1;", "(x = 2, x + 1)");
	ASSERT_DS(16, "x = 1; x <<= 4;", "x");
	ASSERT_DS(6, "", "(char)0x106");
	ASSERT_DS(-1, "", "(char)0xff");
	ASSERT_DS(0xfb, "", "(uint8_t)arg1 | 0xf0");
}

static void
test_strings(void **state)
{
	(void)state;
	ASSERT_S("sonde-test", "execname");
	ASSERT_S("hello", "\"hello\"");
	ASSERT_S("sonde-test:kmem_alloc", "strjoin(execname, "
	    "strjoin(\":\", probefunc))");
	ASSERT_D(10, "strlen(execname)");
	ASSERT_S("nde", "substr(execname, 2, 3)");
	ASSERT_S("SONDE-TEST", "toupper(execname)");
	ASSERT_S("c", "basename(\"/a/b/c\")");
	ASSERT_S("42", "lltostr(pid)");
	ASSERT_D(5, "index(execname, \"-\")");
	ASSERT_D(1, "strjoin(\"a\", \"b\") == \"ab\"");
}

/* The program's description of variable `name` (it must be there). */
static const dt_vardesc *
find_var(const dt_prog *p, const char *name)
{
	for (uint32_t i = 0; i < p->dp_nvars; i++)
		if (strcmp(p->dp_vars[i].vd_name, name) == 0)
			return (&p->dp_vars[i]);
	fprintf(stderr, "no variable %s in the program\n", name);
	fail();
	return (NULL);
}

static void
test_decls(void **state)
{
	(void)state;
	dif_state_t st;
	const dif_difo_t *d;
	uint64_t v = eval("", "1", &st, &d);
	assert_int_equal(v, 1);
	assert_int_equal((int64_t)(uint64_t)compile_ok(
	    "enum e { A = 3, B }; inline int twice = B * 2; "
	    "BEGIN { trace(twice); }")->dp_nclauses, 1);
	dt_prog *p = compile_ok("struct s { char c; long l; short h; };"
	    "BEGIN { trace(sizeof (struct s)); trace(offsetof(struct s, h)); }");
	assert_int_equal(p->dp_clauses[0].cl_nacts, 2);
	p = compile_ok("typedef unsigned short u16; u16 x; self int y;"
	    "int a[string, int]; BEGIN { x = 1; self->y = 2; a[\"k\", 1] = 3; }");
	assert_int_equal(p->dp_nvars, 3);
	assert_int_equal(find_var(p, "a")->vd_nkeys, 2);
}

/*
 * The program's variables: an associative array is listed once, with its
 * number of keys (the framework sizes its dynamic variables from the
 * largest), whether declared, created by a store or first read.
 */
static void
test_prog_vars(void **state)
{
	(void)state;
	dt_prog *p = compile_ok("BEGIN { a[1, \"x\"] = 3; "
	    "self->t[4, 5, 6] = 7; x = self->t[1, 2, 3]; this->l = 1; }");
	assert_int_equal(p->dp_nvars, 3);
	const dt_vardesc *a = find_var(p, "a"), *t = find_var(p, "t");
	const dt_vardesc *x = find_var(p, "x");
	assert_int_equal(a->vd_kind, DIF_VKIND_ARRAY);
	assert_int_equal(a->vd_scope, DIF_SCOPE_GLOBAL);
	assert_int_equal(a->vd_nkeys, 2);
	assert_int_equal(t->vd_kind, DIF_VKIND_ARRAY);
	assert_int_equal(t->vd_scope, DIF_SCOPE_THREAD);
	assert_int_equal(t->vd_nkeys, 3);
	assert_int_equal(x->vd_kind, DIF_VKIND_SCALAR);
	assert_int_equal(x->vd_nkeys, 0);
}

/*
 * Run a whole program's clauses in order as one probe firing (predicates
 * decide), collecting the values of trace() actions.
 */
static int
run_firing(const char *src, int64_t arg0, int64_t arg1, int64_t *out,
    int max)
{
	dt_prog *p = compile_ok(src);
	dif_state_t st;
	dif_hostenv_init(&henv);
	dif_state_init(&st, &henv.env, scratch, sizeof (scratch), 0);
	st.ds_args[0] = (uint64_t)arg0;
	st.ds_args[1] = (uint64_t)arg1;
	int n = 0;
	for (uint32_t c = 0; c < p->dp_nclauses; c++) {
		const dt_clause *cl = &p->dp_clauses[c];
		uint64_t v = 1;
		if (cl->cl_pred != NULL)
			assert_int_equal(dif_emulate(cl->cl_pred, &st, &v), 0);
		if (v == 0)
			continue;
		for (uint32_t a = 0; a < cl->cl_nacts; a++) {
			const dt_action *ac = &cl->cl_acts[a];
			for (uint32_t i = 0; i < ac->ac_nargs; i++) {
				assert_int_equal(dif_emulate(ac->ac_args[i],
				    &st, &v), 0);
				if (ac->ac_kind == DT_ACT_TRACE && n < max)
					out[n++] = (int64_t)v;
			}
		}
	}
	return (n);
}

static void
test_if_else(void **state)
{
	(void)state;
	const char *src = "BEGIN { trace(0); if (arg0 > 10) { trace(1); "
	    "if (arg1) trace(2); } else if (arg0 == 3) trace(3); else { } "
	    "trace(4); if (1) trace(5); else trace(6); }";
	int64_t o[8];
	int n = run_firing(src, 20, 1, o, 8);
	assert_int_equal(n, 5);
	assert_int_equal(o[0], 0);
	assert_int_equal(o[1], 1);
	assert_int_equal(o[2], 2);
	assert_int_equal(o[3], 4);
	assert_int_equal(o[4], 5);
	n = run_firing(src, 20, 0, o, 8);
	assert_int_equal(n, 4);
	assert_int_equal(o[2], 4);
	n = run_firing(src, 3, 0, o, 8);
	assert_int_equal(n, 4);
	assert_int_equal(o[1], 3);
	n = run_firing(src, 5, 0, o, 8);
	assert_int_equal(n, 3);
	assert_int_equal(o[1], 4);
	/* empty branches make no clause ("if (x) ;" found by the fuzzer) */
	n = run_firing("BEGIN { if (arg0) ; else trace(1); if (arg1) {} "
	    "trace(2); }", 1, 0, o, 8);
	assert_int_equal(n, 1);
	assert_int_equal(o[0], 2);
	/* a false clause predicate stops the split clauses too */
	n = run_firing("BEGIN /arg0 == 1/ { if (arg1) trace(1); trace(2); }",
	    2, 1, o, 8);
	assert_int_equal(n, 0);
}

/* Members and elements of struct and array D variables. */
static void
test_substore(void **state)
{
	(void)state;
	const char *src = "struct point { int x; int y; }; struct point p;"
	    "int arr[4]; self struct point sp;"
	    "BEGIN { trace(p.y); trace(arr[2]); p.x = 3; p.y = -4; arr[0] = 1;"
	    " arr[3] = 8; arr[arg0 % 4] += 2; self->sp.y = 7;"
	    " trace(p.x); trace(p.y); trace(arr[0]); trace(arr[3]);"
	    " trace(arr[arg1]); trace(self->sp.y + self->sp.x); }";
	int64_t o[16];
	int n = run_firing(src, 3, 3, o, 16);
	assert_int_equal(n, 8);
	assert_int_equal(o[0], 0);	/* unset reads as zero */
	assert_int_equal(o[1], 0);
	assert_int_equal(o[2], 3);
	assert_int_equal(o[3], -4);
	assert_int_equal(o[4], 1);
	assert_int_equal(o[5], 10);	/* arr[3] = 8, += 2 */
	assert_int_equal(o[6], 10);
	assert_int_equal(o[7], 7);
	dt_error e = compile_err("int arr[4]; BEGIN { arr[4] = 1; }");
	assert_string_equal(e.de_tag, "D_ARR_BADREF");
	/* a dynamic index out of bounds faults instead of writing */
	dt_prog *p = compile_ok("int arr[4]; BEGIN { arr[arg0] = 1; }");
	dif_state_t st;
	dif_hostenv_init(&henv);
	dif_state_init(&st, &henv.env, scratch, sizeof (scratch), 0);
	st.ds_args[0] = 4;
	uint64_t v;
	assert_int_equal(dif_emulate(p->dp_clauses[0].cl_acts[0].ac_args[0],
	    &st, &v), DIF_FAULT_BADADDR);
}

/* ---- the program object ---- */

static void
test_prog_probes(void **state)
{
	(void)state;
	dt_prog *p = compile_ok("fbt::vfs_*:entry, BEGIN, foo:bar, "
	    "a:b:c:d { trace(1); }");
	assert_int_equal(p->dp_nclauses, 1);
	const dt_clause *cl = &p->dp_clauses[0];
	assert_int_equal(cl->cl_nprobes, 4);
	assert_string_equal(cl->cl_probes[0].pd_prov, "fbt");
	assert_string_equal(cl->cl_probes[0].pd_mod, "");
	assert_string_equal(cl->cl_probes[0].pd_func, "vfs_*");
	assert_string_equal(cl->cl_probes[0].pd_name, "entry");
	assert_string_equal(cl->cl_probes[1].pd_name, "BEGIN");
	assert_string_equal(cl->cl_probes[1].pd_prov, "");
	assert_string_equal(cl->cl_probes[2].pd_func, "foo");
	assert_string_equal(cl->cl_probes[2].pd_name, "bar");
	assert_string_equal(cl->cl_probes[3].pd_mod, "b");
	assert_null(cl->cl_pred);
}

static void
test_prog_actions(void **state)
{
	(void)state;
	dt_prog *p = compile_ok("#pragma D option quiet\n"
	    "#pragma D option bufsize=4m\n"
	    "BEGIN /pid/ { printf(\"%s %d\\n\", execname, pid); "
	    "@c[execname] = count(); @l = lquantize(pid, 0, 100, 10); "
	    "printa(\"%s %@d\\n\", @c); exit(0); }");
	const dt_clause *cl = &p->dp_clauses[0];
	assert_non_null(cl->cl_pred);
	assert_int_equal(cl->cl_nacts, 5);
	assert_int_equal(cl->cl_acts[0].ac_kind, DT_ACT_PRINTF);
	assert_int_equal(cl->cl_acts[0].ac_nargs, 2);
	assert_int_equal(cl->cl_acts[1].ac_kind, DT_ACT_AGG);
	assert_int_equal(cl->cl_acts[3].ac_kind, DT_ACT_PRINTA);
	assert_int_equal(cl->cl_acts[4].ac_kind, DT_ACT_EXIT);
	assert_int_equal(p->dp_naggs, 2);
	assert_string_equal(p->dp_aggs[0].ag_name, "c");
	assert_int_equal(p->dp_aggs[0].ag_func, DT_AGG_COUNT);
	assert_int_equal(p->dp_aggs[0].ag_nkeys, 1);
	assert_true(p->dp_aggs[0].ag_keys[0].kt_string);
	assert_int_equal(p->dp_aggs[1].ag_func, DT_AGG_LQUANTIZE);
	assert_int_equal(p->dp_aggs[1].ag_params[2], 10);
	assert_int_equal(p->dp_nformats, 2);
	assert_int_equal(p->dp_formats[0].fd_nconvs, 2);
	assert_int_equal(p->dp_formats[0].fd_convs[0].cv_kind, DT_CONV_STR);
	assert_int_equal(p->dp_formats[0].fd_convs[1].cv_kind, DT_CONV_SINT);
	assert_int_equal(p->dp_formats[1].fd_convs[1].cv_kind, DT_CONV_AGG);
	assert_int_equal(p->dp_noptions, 2);
	assert_string_equal(p->dp_options[1].op_name, "bufsize");
	assert_string_equal(p->dp_options[1].op_value, "4m");
}

/* The format parser: flags in any order (of 0 and - the later wins), ?, *, @. */
static void
test_printf_parse(void **state)
{
	(void)state;
	dt_prog *p = compile_ok("BEGIN { printf(\"%-08d%0-8x%?p%*.*s%%%#llx%hd\", "
	    "1, 2, (void *)0, 3, 4, \"s\", 5LL, (short)6); @a[1] = count(); "
	    "printa(\"%d%-8@u%+@d\", @a); }");
	const dt_conv *cv = p->dp_formats[0].fd_convs;
	assert_int_equal(p->dp_formats[0].fd_nconvs, 7);
	assert_int_equal(cv[0].cv_flags, DT_PF_ZPAD);
	assert_int_equal(cv[0].cv_width, 8);
	assert_string_equal(cv[0].cv_name, "d");
	assert_int_equal(cv[1].cv_flags, DT_PF_LEFT);
	assert_int_equal(cv[1].cv_ofmt, 'x');
	assert_int_equal(cv[2].cv_width, 16);
	assert_int_equal(cv[2].cv_kind, DT_CONV_PTR);
	assert_int_equal(cv[3].cv_flags, DT_PF_DYNW | DT_PF_DYNP);
	assert_int_equal(cv[3].cv_textlen, 5);
	assert_int_equal(cv[4].cv_kind, DT_CONV_PCT);
	assert_int_equal(cv[5].cv_flags, DT_PF_ALT);
	assert_string_equal(cv[5].cv_name, "llx");
	assert_string_equal(cv[6].cv_name, "hd");
	cv = p->dp_formats[1].fd_convs;
	assert_int_equal(cv[1].cv_kind, DT_CONV_AGG);
	assert_int_equal(cv[1].cv_flags, DT_PF_AGG | DT_PF_LEFT);
	assert_int_equal(cv[1].cv_width, 8);
	assert_int_equal(cv[2].cv_flags, DT_PF_AGG | DT_PF_SPOS);
}

static void
test_prog_spec(void **state)
{
	(void)state;
	dt_prog *p = compile_ok("BEGIN { speculate(1); trace(2); }"
	    "END { commit(1); } ERROR { discard(1); }");
	assert_true(p->dp_clauses[0].cl_speculative);
	assert_int_equal(p->dp_clauses[1].cl_acts[0].ac_kind, DT_ACT_COMMIT);
	assert_false(p->dp_destructive);
	dt_opts o;
	memset(&o, 0, sizeof (o));
	o.o_target = -1;
	dt_error e;
	/* without -w it compiles too: enabling is what refuses it */
	const char *src = "BEGIN { chill(10); }";
	assert_int_equal(dt_compile(src, strlen(src), &o, arena, ARENA, &p,
	    &e), 0);
	assert_true(p->dp_destructive);
}

static int
fake_sym(void *arg, const char *name, uint64_t *addr, uint64_t *size)
{
	(void)arg;
	if (strcmp(name, "ticks") != 0)
		return (-1);
	*addr = HOSTENV_KMEM + 0x40;
	*size = 4;
	return (0);
}

/* `sym reads a kernel object through the symbol lookup callback. */
static void
test_symbols(void **state)
{
	(void)state;
	dt_opts o;
	memset(&o, 0, sizeof (o));
	o.o_symlookup = fake_sym;
	dt_prog *p;
	dt_error e;
	const char *src = "BEGIN { trace(`ticks + 1); trace(&`ticks); }";
	assert_int_equal(dt_compile(src, strlen(src), &o, arena, ARENA, &p,
	    &e), 0);
	dif_hostenv_init(&henv);
	uint32_t v = 41;
	memcpy(henv.kmem + 0x40, &v, 4);
	dif_state_t st;
	dif_state_init(&st, &henv.env, scratch, sizeof (scratch), 0);
	uint64_t r;
	assert_int_equal(dif_emulate(p->dp_clauses[0].cl_acts[0].ac_args[0],
	    &st, &r), 0);
	assert_int_equal(r, 42);
	assert_int_equal(dif_emulate(p->dp_clauses[0].cl_acts[1].ac_args[0],
	    &st, &r), 0);
	assert_int_equal(r, HOSTENV_KMEM + 0x40);
	src = "BEGIN { trace(`nosuch); }";
	assert_int_equal(dt_compile(src, strlen(src), &o, arena, ARENA, &p,
	    &e), -1);
	assert_string_equal(e.de_tag, "D_SYM_BADREF");
	assert_true(p == NULL);
}

/* ---- errors ---- */

static void
test_err_printf(void **state)
{
	(void)state;
	dt_error e = compile_err("BEGIN\n{\n\tprintf(\"%d\", \"x\");\n}\n");
	assert_string_equal(e.de_tag, "D_PRINTF_ARG_TYPE");
	assert_int_equal(e.de_line, 3);
	assert_string_equal(e.de_msg, "printf( ) argument #2 is incompatible "
	    "with conversion #1 prototype:\n\tconversion: %d\n\t prototype: "
	    "char, short, int, long, or long long\n\t  argument: string");
	char buf[600];
	dt_error_format(&e, true, buf, sizeof (buf));
	assert_memory_equal(buf, "[D_PRINTF_ARG_TYPE] line 3: printf( )", 36);
}

static void
test_err_positions(void **state)
{
	(void)state;
	dt_error e = compile_err("BEGIN\n{\n  x = 1 +;\n}");
	assert_string_equal(e.de_tag, "D_SYNTAX");
	assert_int_equal(e.de_line, 3);
	assert_int_equal(e.de_col, 10);
	assert_string_equal(e.de_msg, "syntax error near \";\"");
	e = compile_err("BEGIN { trace(1 / 0); }");
	assert_string_equal(e.de_tag, "D_DIV_ZERO");
	assert_string_equal(e.de_msg, "expression contains division by zero");
	e = compile_err("BEGIN { trace(nosuch); }");
	assert_string_equal(e.de_msg, "failed to resolve nosuch: Unknown "
	    "variable name");
	e = compile_err("BEGIN { @a = count(); @a = sum(1); }");
	assert_string_equal(e.de_tag, "D_AGG_REDEF");
	e = compile_err("BEGIN { speculate(1); speculate(2); }");
	assert_string_equal(e.de_msg, "speculate( ) may not follow "
	    "speculate( )");
}

/*
 * DTrace's words, argument numbers and lines (an error is at the line of
 * the expression or statement DTrace was checking).
 */
static void
test_err_dtrace_words(void **state)
{
	(void)state;
	dt_error e = compile_err("BEGIN\n{\n\tx = 1;\n\ty = x + \"a\";\n}");
	assert_string_equal(e.de_tag, "D_OP_INCOMPAT");
	assert_int_equal(e.de_line, 4);
	e = compile_err("BEGIN\n{\n\tstack(0);\n}");
	assert_string_equal(e.de_tag, "D_STACK_SIZE");
	assert_int_equal(e.de_line, 3);
	e = compile_err("BEGIN\n{\n\texit();\n}");
	assert_int_equal(e.de_line, 3);
	assert_string_equal(e.de_msg, "exit( ) prototype mismatch: 0 args "
	    "passed, 1 expected");
	e = compile_err("BEGIN { trace(substr(\"a\", 1, 2, 3)); }");
	assert_string_equal(e.de_msg, "substr( ) prototype mismatch: 4 args "
	    "passed, at least 2 expected");
	e = compile_err("BEGIN { trace(strlen(1)); }");
	assert_string_equal(e.de_msg, "strlen( ) argument #1 is incompatible "
	    "with prototype:\n\tprototype: const char *\n\t argument: int");
	e = compile_err("BEGIN { @a[1] = count(); @a[\"x\"] = count(); }");
	assert_string_equal(e.de_msg, "@a[ ] key #1 is incompatible with "
	    "prototype:\n\tprototype: int\n\t      key: string");
	e = compile_err("BEGIN { @a[1] = count(); @b[\"x\"] = count(); "
	    "printa(@a, @b); }");
	assert_string_equal(e.de_tag, "D_PRINTA_AGGPROTO");
	assert_string_equal(e.de_msg, "printa( ): @b[ ] key #1 is incompatible "
	    "with @a:\n        a key #1: int\n        b key #1: string");
	e = compile_err("BEGIN { @a[trace(1)] = count(); }");
	assert_string_equal(e.de_msg, "void expression may not be used as "
	    "aggregation index: key #1");
	e = compile_err("BEGIN { x = trace(y); }");
	assert_string_equal(e.de_tag, "D_IDENT_UNDEF");
	e = compile_err("BEGIN { x = stack(); }");
	assert_string_equal(e.de_msg, "tracing function stack( ) may not be "
	    "called from a D expression (D program context required)");
}

/* ---- robustness ---- */

static void
test_small_arena(void **state)
{
	(void)state;
	dt_prog *p;
	dt_error e;
	static uint8_t small[64];
	const char *src = "BEGIN { trace(1); }";
	assert_int_equal(dt_compile(src, strlen(src), NULL, small,
	    sizeof (small), &p, &e), -1);
	assert_string_equal(e.de_tag, "D_NOMEM");
	/* enough for the context, not for the program */
	static char big[64 << 10];
	size_t n = 0;
	for (int i = 0; i < 1000 && n + 64 < sizeof (big); i++)
		n += (size_t)snprintf(big + n, sizeof (big) - n,
		    "BEGIN { x%d = %d; }\n", i, i);
	assert_int_equal(dt_compile(big, n, NULL, arena, 48 << 10, &p, &e),
	    -1);
	assert_string_equal(e.de_tag, "D_NOMEM");
	assert_int_equal(dt_compile(big, n, NULL, arena, ARENA, &p, &e), 0);
	assert_int_equal(p->dp_nclauses, 1000);
	fprintf(stderr, "arena: %zu bytes for 1000 one-line clauses\n",
	    p->dp_arena_used);
}

static void
test_unterminated(void **state)
{
	(void)state;
	dt_prog *p;
	dt_error e;
	/* only the first 19 bytes are the program */
	const char *src = "BEGIN { trace(1); }garbage that is not D";
	assert_int_equal(dt_compile(src, 19, NULL, arena, ARENA, &p, &e), 0);
	assert_int_equal(dt_compile(src, 16, NULL, arena, ARENA, &p, &e), -1);
	assert_string_equal(e.de_tag, "D_SYNTAX");
	assert_int_equal(dt_compile("BEGIN { trace(\"ab", 16, NULL, arena,
	    ARENA, &p, &e), -1);
	assert_string_equal(e.de_tag, "D_STR_NL");
	assert_int_equal(dt_compile(NULL, 0, NULL, arena, ARENA, &p, &e), -1);
	assert_string_equal(e.de_tag, "D_EMPTY");
}

static void
test_deep_nesting(void **state)
{
	(void)state;
	static char src[8192];
	size_t n = (size_t)snprintf(src, sizeof (src), "BEGIN { trace(");
	for (int i = 0; i < 3000; i++)
		src[n++] = '(';
	src[n++] = '1';
	src[n] = '\0';
	dt_prog *p;
	dt_error e;
	assert_int_equal(dt_compile(src, n, NULL, arena, ARENA, &p, &e), -1);
	assert_string_equal(e.de_tag, "D_SYNTAX");
	n = (size_t)snprintf(src, sizeof (src), "BEGIN { trace(");
	for (int i = 0; i < 3000; i++)
		src[n++] = '-';
	src[n++] = '1';
	src[n] = '\0';
	assert_int_equal(dt_compile(src, n, NULL, arena, ARENA, &p, &e), -1);
}

static void
test_deterministic(void **state)
{
	(void)state;
	const char *src = "BEGIN { x = pid + 1; a[x, \"s\"] = strlen(execname);"
	    " @q = quantize(x); }";
	static uint8_t a2[ARENA];
	dt_prog *p1, *p2;
	dt_error e;
	assert_int_equal(dt_compile(src, strlen(src), NULL, arena, ARENA, &p1,
	    &e), 0);
	assert_int_equal(dt_compile(src, strlen(src), NULL, a2, ARENA, &p2,
	    &e), 0);
	for (uint32_t i = 0; i < p1->dp_clauses[0].cl_nacts; i++) {
		const dif_difo_t *d1 = p1->dp_clauses[0].cl_acts[i].ac_args[0];
		const dif_difo_t *d2 = p2->dp_clauses[0].cl_acts[i].ac_args[0];
		assert_int_equal(d1->dd_ninsns, d2->dd_ninsns);
		assert_memory_equal(d1->dd_insns, d2->dd_insns,
		    d1->dd_ninsns * sizeof (dif_instr_t));
	}
}

/*
 * The kernel runs the compiler on a 16 KiB thread stack: measure the stack
 * the compiler uses at its nesting limit by painting a thread's stack.
 */
static const char *stk_src;
static void *
stk_run(void *arg)
{
	(void)arg;
	dt_prog *p;
	dt_error e;
	(void)dt_compile(stk_src, strlen(stk_src), NULL, arena, ARENA, &p, &e);
	return (NULL);
}

static size_t
stack_used(const char *src)
{
	enum { SZ = 1 << 18 };
	static unsigned char stk[SZ] __attribute__((aligned(4096)));
	memset(stk, 0xaa, SZ);
	stk_src = src;
	pthread_attr_t at;
	pthread_t t;
	pthread_attr_init(&at);
	pthread_attr_setstack(&at, stk, SZ);
	assert_int_equal(pthread_create(&t, &at, stk_run, NULL), 0);
	pthread_join(t, NULL);
	size_t i = 0;
	while (i < SZ && stk[i] == 0xaa)
		i++;
	return (SZ - i);
}

static void
test_stack_budget(void **state)
{
	(void)state;
	static char src[4096];
	size_t base = stack_used("");
	size_t n = (size_t)snprintf(src, sizeof (src), "BEGIN { trace(");
	for (int i = 0; i < DT_MAXDEPTH - 2; i++)
		src[n++] = '(';
	src[n++] = '1';
	for (int i = 0; i < DT_MAXDEPTH - 2; i++)
		src[n++] = ')';
	snprintf(src + n, sizeof (src) - n, "); }");
	size_t deep = stack_used(src);
	fprintf(stderr, "stack: %zu bytes at nesting %d (thread baseline %zu)\n",
	    deep - base, DT_MAXDEPTH - 2, base);
	assert_true(deep - base < 10 * 1024);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arith),
		cmocka_unit_test(test_logic),
		cmocka_unit_test(test_vars),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_decls),
		cmocka_unit_test(test_prog_vars),
		cmocka_unit_test(test_if_else),
		cmocka_unit_test(test_substore),
		cmocka_unit_test(test_prog_probes),
		cmocka_unit_test(test_prog_actions),
		cmocka_unit_test(test_printf_parse),
		cmocka_unit_test(test_prog_spec),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_err_printf),
		cmocka_unit_test(test_err_positions),
		cmocka_unit_test(test_err_dtrace_words),
		cmocka_unit_test(test_small_arena),
		cmocka_unit_test(test_unterminated),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_stack_budget),
	};
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
