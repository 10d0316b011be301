/*
 * tests/unit/dif_validate_test.c: the validator and the instruction table,
 * on DIFOs built by hand (the vectors cover what the assembler can express;
 * these cover what it cannot: NULL tables, unterminated string tables,
 * empty programs) and the consistency of dif_ops.def itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dif/dif.h"

struct seen {
	int n;
	uint32_t pc[32];
	const char *why[32];
};

static void record(void *arg, uint32_t pc, const char *why)
{
	struct seen *s = arg;

	if (s->n < 32) {
		s->pc[s->n] = pc;
		s->why[s->n] = why;
	}
	s->n++;
}

static bool reported(const struct seen *s, uint32_t pc, const char *text)
{
	for (int i = 0; i < s->n && i < 32; i++)
		if (s->pc[i] == pc && strstr(s->why[i], text))
			return true;
	return false;
}

static dif_difo_t difo(const dif_instr_t *insns, uint32_t n)
{
	return (dif_difo_t){ .dd_insns = insns, .dd_ninsns = n,
	                     .dd_rtype = { DIF_TYPE_INT, DIF_TF_SIGNED, 0, 8 } };
}

static void test_minimal_program_accepted(void **state)
{
	dif_instr_t p[] = { DIF_INSTR_RET(0) };
	dif_difo_t d = difo(p, 1);

	(void)state;
	assert_int_equal(dif_validate(&d, 0, NULL, NULL), 0);
}

static void test_empty_program_rejected(void **state)
{
	struct seen s = { 0 };
	dif_difo_t d = difo(NULL, 0);

	(void)state;
	assert_int_equal(dif_validate(&d, 0, record, &s), 1);
	assert_true(reported(&s, DIF_PC_NONE, "no instructions"));
}

static void test_unterminated_strtab_rejected(void **state)
{
	struct seen s = { 0 };
	dif_instr_t p[] = { DIF_INSTR_SETS(0, 1), DIF_INSTR_RET(1) };
	dif_difo_t d = difo(p, 2);

	(void)state;
	d.dd_strtab = "abc";
	d.dd_strlen = 3;                       /* no NUL inside the table */
	assert_int_equal(dif_validate(&d, 0, record, &s), 1);
	assert_true(reported(&s, DIF_PC_NONE, "not NUL-terminated"));
}

static void test_null_tables_rejected(void **state)
{
	struct seen s = { 0 };
	dif_instr_t p[] = { DIF_INSTR_RET(0) };
	dif_difo_t d = difo(p, 1);

	(void)state;
	d.dd_nints = 2;                        /* but dd_inttab == NULL */
	d.dd_nvars = 1;                        /* but dd_vartab == NULL */
	assert_int_equal(dif_validate(&d, 0, record, &s), 2);
	assert_true(reported(&s, DIF_PC_NONE, "bad integer table"));
	assert_true(reported(&s, DIF_PC_NONE, "bad variable table"));
}

static void test_problem_count_without_callback(void **state)
{
	dif_instr_t p[] = { DIF_INSTR_MAKE(DIF_OP_ADD, 9, 9, 0), DIF_INSTR_NOP };
	dif_difo_t d = difo(p, 2);

	(void)state;
	/* bad r1, bad r2, write to %r0, missing ret */
	assert_int_equal(dif_validate(&d, 0, NULL, NULL), 4);
}

static void test_privileges(void **state)
{
	dif_instr_t p[] = { DIF_INSTR_CALL(DIF_SUBR_COPYOUT, 1), DIF_INSTR_RET(1) };
	dif_difo_t d = difo(p, 2);

	(void)state;
	assert_int_equal(dif_validate(&d, 0, NULL, NULL), 1);
	assert_int_equal(dif_validate(&d, DIF_VF_DESTRUCTIVE, NULL, NULL), 0);
}

static void test_string_var_type(void **state)
{
	struct seen s = { 0 };
	dif_var_t v = { .dv_name = 0, .dv_id = DIF_VAR_USER_BASE,
	                .dv_scope = DIF_SCOPE_GLOBAL, .dv_kind = DIF_VKIND_SCALAR,
	                .dv_type = { DIF_TYPE_STRING, 0, 0, 0 } };  /* not BYREF */
	dif_instr_t p[] = { DIF_INSTR_VLOAD(DIF_OP_LDGS, DIF_VAR_USER_BASE, 1),
	                    DIF_INSTR_RET(1) };
	dif_difo_t d = difo(p, 2);

	(void)state;
	d.dd_strtab = "x";
	d.dd_strlen = 2;
	d.dd_vartab = &v;
	d.dd_nvars = 1;
	assert_int_equal(dif_validate(&d, 0, record, &s), 1);
	assert_true(reported(&s, DIF_PC_NONE, "bad type"));
	v.dv_type.dt_flags = DIF_TF_BYREF;
	assert_int_equal(dif_validate(&d, 0, NULL, NULL), 0);
}

/* Every opcode in the table is described consistently. */
static void test_optable_consistent(void **state)
{
	unsigned n = 0;

	(void)state;
	assert_null(dif_opinfo(0));
	assert_null(dif_opinfo(DIF_OP_MAX));
	for (unsigned op = 0; op < 256; op++) {
		const dif_opinfo_t *oi = dif_opinfo(op);
		if (oi == NULL)
			continue;
		n++;
		assert_non_null(oi->oi_meaning);
		/* only the rd field is ever written */
		assert_true(oi->oi_role[0] != DIF_ROLE_W && oi->oi_role[1] != DIF_ROLE_W);
		if (oi->oi_flags & DIF_OF_BRANCH)
			assert_int_equal(oi->oi_fmt, DIF_FMT_BR);
		if (oi->oi_fmt == DIF_FMT_RRR)
			assert_int_equal(oi->oi_role[2], DIF_ROLE_W);
	}
	assert_int_equal(n, DIF_OP_MAX - 1);   /* dense: 0x01 .. MAX-1 */
}

static void test_subr_and_builtin_tables(void **state)
{
	const dif_builtin_t *bi;

	(void)state;
	for (unsigned id = 0; id < DIF_SUBR_MAX; id++) {
		const dif_subrinfo_t *si = dif_subrinfo(id);
		assert_non_null(si);
		assert_true(si->si_minargs <= si->si_maxargs);
	}
	assert_null(dif_subrinfo(DIF_SUBR_MAX));
	assert_string_equal(dif_subrinfo(DIF_SUBR_STRLEN)->si_name, "strlen");
	bi = dif_builtin_lookup("execname", 8);
	assert_non_null(bi);
	assert_int_equal(bi->bi_id, DIF_VAR_EXECNAME);
	assert_int_equal(bi->bi_kind, DIF_TYPE_STRING);
	assert_null(dif_builtin_lookup("execnam", 7 + 1));   /* no such name */
	assert_ptr_equal(dif_builtin_byid(DIF_VAR_ARG0 + 3), dif_builtin_lookup("arg3", 4));
	assert_string_equal(dif_fault_name(DIF_FAULT_TUPOFLOW), "TUPOFLOW");
	assert_int_equal(DIF_FAULT_BADADDR, 1);
	assert_int_equal(DIF_FAULT_BADSTACK, 9);
}

/* A variable opcode names one scope (dif_op_scope) and one kind: array iff DIF_OF_TUPLE. */
static void test_var_opcode_scope_and_kind(void **state)
{
	static const struct { unsigned op, scope; bool array; } want[] = {
		{ DIF_OP_LDGS, DIF_SCOPE_GLOBAL, false },
		{ DIF_OP_STGS, DIF_SCOPE_GLOBAL, false },
		{ DIF_OP_LDGAA, DIF_SCOPE_GLOBAL, true },
		{ DIF_OP_STGAA, DIF_SCOPE_GLOBAL, true },
		{ DIF_OP_LDTS, DIF_SCOPE_THREAD, false },
		{ DIF_OP_STTS, DIF_SCOPE_THREAD, false },
		{ DIF_OP_LDTAA, DIF_SCOPE_THREAD, true },
		{ DIF_OP_STTAA, DIF_SCOPE_THREAD, true },
		{ DIF_OP_LDLS, DIF_SCOPE_LOCAL, false },
		{ DIF_OP_STLS, DIF_SCOPE_LOCAL, false },
	};
	unsigned nvar = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const dif_opinfo_t *oi = dif_opinfo(want[i].op);
		assert_true(oi->oi_fmt == DIF_FMT_VLD || oi->oi_fmt == DIF_FMT_VST);
		assert_int_equal(dif_op_scope(want[i].op), want[i].scope);
		assert_int_equal((oi->oi_flags & DIF_OF_TUPLE) != 0, want[i].array);
	}
	for (unsigned op = 0; op < 256; op++)
		if (dif_opinfo(op) && (dif_opinfo(op)->oi_fmt == DIF_FMT_VLD ||
		                       dif_opinfo(op)->oi_fmt == DIF_FMT_VST))
			nvar++;
	assert_int_equal(nvar, sizeof(want) / sizeof(want[0]));   /* none left out */
}

static void test_var_lookup(void **state)
{
	static const dif_var_t vars[] = {
		{ .dv_id = 0x500, .dv_scope = DIF_SCOPE_GLOBAL },
		{ .dv_id = 0x500, .dv_scope = DIF_SCOPE_THREAD },
	};
	dif_difo_t d = { .dd_vartab = vars, .dd_nvars = 2 };

	(void)state;
	assert_ptr_equal(dif_var_lookup(&d, 0x500, DIF_SCOPE_GLOBAL), &vars[0]);
	assert_ptr_equal(dif_var_lookup(&d, 0x500, DIF_SCOPE_THREAD), &vars[1]);
	assert_null(dif_var_lookup(&d, 0x500, DIF_SCOPE_LOCAL));
	assert_null(dif_var_lookup(&d, 0x501, DIF_SCOPE_GLOBAL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal_program_accepted),
		cmocka_unit_test(test_empty_program_rejected),
		cmocka_unit_test(test_unterminated_strtab_rejected),
		cmocka_unit_test(test_null_tables_rejected),
		cmocka_unit_test(test_problem_count_without_callback),
		cmocka_unit_test(test_privileges),
		cmocka_unit_test(test_string_var_type),
		cmocka_unit_test(test_optable_consistent),
		cmocka_unit_test(test_subr_and_builtin_tables),
		cmocka_unit_test(test_var_opcode_scope_and_kind),
		cmocka_unit_test(test_var_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
