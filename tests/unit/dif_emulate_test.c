/*
 * tests/unit/dif_emulate_test.c: the interpreter's contract (dif.h) beyond
 * what a vector can state: instruction counting, *rval untouched on a
 * fault, the tuple stack empty after every run, scratch bookkeeping, and
 * robustness on programs that never went through the validator, and the
 * embedder's owned ranges (dif_state_own) read in place.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dif/dif.h"
#include "tests/dif/dif_hostenv.h"

static struct dif_hostenv henv;
static uint8_t scratch[1024];

static dif_difo_t difo(const dif_instr_t *insns, uint32_t n)
{
	return (dif_difo_t){ .dd_insns = insns, .dd_ninsns = n,
	                     .dd_rtype = { DIF_TYPE_INT, DIF_TF_SIGNED, 0, 8 } };
}

static void setup_state(dif_state_t *st)
{
	dif_hostenv_init(&henv);
	dif_state_init(st, &henv.env, scratch, sizeof(scratch), 0);
}

static void test_state_init_defaults(void **state)
{
	dif_state_t st;

	(void)state;
	setup_state(&st);
	assert_int_equal(st.ds_strsize, DIF_STRSIZE_DEFAULT);
	assert_int_equal(st.ds_scratch_used, 0);
	assert_int_equal(st.ds_insns, 0);
	assert_int_equal(st.ds_fault.df_code, DIF_FAULT_NONE);
}

/* Taken branches skip instructions: only executed ones are counted. */
static void test_counts_executed_instructions(void **state)
{
	dif_instr_t p[] = {
		DIF_INSTR_BRANCH(DIF_OP_BA, 4), DIF_INSTR_NOP, DIF_INSTR_NOP,
		DIF_INSTR_NOP, DIF_INSTR_RET(0),
	};
	dif_difo_t d = difo(p, 5);
	dif_state_t st;
	uint64_t rv = 99;

	(void)state;
	setup_state(&st);
	assert_int_equal(dif_emulate(&d, &st, &rv), 0);
	assert_int_equal(rv, 0);
	assert_int_equal(st.ds_insns, 2);
	assert_int_equal(dif_emulate(&d, &st, &rv), 0);
	assert_int_equal(st.ds_insns, 4);          /* accumulates */
}

static void test_fault_leaves_rval(void **state)
{
	uint64_t ints[] = { 7 };
	dif_instr_t p[] = {
		DIF_INSTR_SETX(0, 1),
		DIF_INSTR_RRR(DIF_OP_UDIV, 1, 0, 2),
		DIF_INSTR_RET(2),
	};
	dif_difo_t d = difo(p, 3);
	dif_state_t st;
	uint64_t rv = 0x5555;

	(void)state;
	d.dd_inttab = ints;
	d.dd_nints = 1;
	setup_state(&st);
	assert_int_equal(dif_emulate(&d, &st, &rv), DIF_FAULT_DIVZERO);
	assert_int_equal(rv, 0x5555);
	assert_int_equal(st.ds_fault.df_code, DIF_FAULT_DIVZERO);
	assert_int_equal(st.ds_fault.df_pc, 1);
	/* a later successful run clears the fault */
	p[1] = DIF_INSTR_RRR(DIF_OP_UDIV, 1, 1, 2);
	assert_int_equal(dif_emulate(&d, &st, &rv), 0);
	assert_int_equal(rv, 1);
	assert_int_equal(st.ds_fault.df_code, DIF_FAULT_NONE);
}

static void test_tuple_stack_empty_after_run(void **state)
{
	dif_instr_t p[] = { DIF_INSTR_PUSHTV(0), DIF_INSTR_PUSHTV(0), DIF_INSTR_RET(0) };
	dif_difo_t d = difo(p, 3);
	dif_state_t st;
	uint64_t rv;

	(void)state;
	setup_state(&st);
	assert_int_equal(dif_emulate(&d, &st, &rv), 0);
	assert_int_equal(st.ds_ntuples, 0);
}

static void test_scratch_accounting(void **state)
{
	uint64_t ints[] = { 5 };
	dif_instr_t p[] = {
		DIF_INSTR_SETX(0, 1), DIF_INSTR_RR(DIF_OP_ALLOCS, 1, 2),
		DIF_INSTR_RR(DIF_OP_ALLOCS, 1, 3), DIF_INSTR_RRR(DIF_OP_SUB, 3, 2, 4),
		DIF_INSTR_RET(4),
	};
	dif_difo_t d = difo(p, 5);
	dif_state_t st;
	uint64_t rv;

	(void)state;
	d.dd_inttab = ints;
	d.dd_nints = 1;
	setup_state(&st);
	assert_int_equal(dif_emulate(&d, &st, &rv), 0);
	assert_int_equal(rv, 8);                   /* 5 rounded up to 8 */
	assert_int_equal(st.ds_scratch_used, 13);
	/* scratch is not reset by the interpreter: the caller does that */
	assert_int_equal(dif_emulate(&d, &st, &rv), 0);
	assert_int_equal(st.ds_scratch_used, 29);
}

/*
 * Owned ranges (dif_state_own): arg0 is a host pointer, which the model's
 * de_load cannot read (BADADDR), so scmp against "abc" only succeeds when
 * the embedder vouched for it, and a string running past the owned range
 * still faults at the first byte beyond it.
 */
static void test_owned_strings(void **state)
{
	static const char tab[] = "abc";
	static const char owned[8] = "abc";
	static const char unterminated[3] = { 'a', 'b', 'c' };
	dif_instr_t p[] = {
		DIF_INSTR_VLOAD(DIF_OP_LDGS, DIF_VAR_ARG0, 1), DIF_INSTR_SETS(0, 2),
		DIF_INSTR_CMP(DIF_OP_SCMP, 1, 2), DIF_INSTR_BRANCH(DIF_OP_BE, 6),
		DIF_INSTR_SETS(1, 3), DIF_INSTR_RET(3), DIF_INSTR_RET(2),
	};
	dif_difo_t d = difo(p, 7);
	dif_state_t st;
	uint64_t rv = 0;

	(void)state;
	d.dd_strtab = tab;
	d.dd_strlen = sizeof(tab);
	setup_state(&st);
	st.ds_args[0] = (uint64_t)(uintptr_t)owned;
	assert_int_equal(dif_emulate(&d, &st, &rv), DIF_FAULT_BADADDR);   /* not vouched for */
	assert_int_equal(dif_owned_span(&st, st.ds_args[0]), 0);
	dif_state_own(&st, (uint64_t)(uintptr_t)owned, sizeof(owned));
	dif_state_own(&st, (uint64_t)(uintptr_t)owned, sizeof(owned));    /* once */
	assert_int_equal(st.ds_nowned, 1);
	assert_int_equal(dif_owned_span(&st, st.ds_args[0] + 2), sizeof(owned) - 2);
	assert_int_equal(dif_emulate(&d, &st, &rv), 0);
	assert_int_equal(rv, (uint64_t)(uintptr_t)tab);                 /* equal */
	st.ds_args[0] = (uint64_t)(uintptr_t)unterminated;
	dif_state_own(&st, (uint64_t)(uintptr_t)unterminated, sizeof(unterminated));
	assert_int_equal(dif_emulate(&d, &st, &rv), DIF_FAULT_BADADDR); /* its NUL would be past it */
	assert_int_equal(st.ds_fault.df_addr, (uint64_t)(uintptr_t)unterminated + 3);
	st.ds_nowned = 0;                                               /* the embedder's reset */
	st.ds_args[0] = (uint64_t)(uintptr_t)owned;
	assert_int_equal(dif_emulate(&d, &st, &rv), DIF_FAULT_BADADDR);
}

/* Unvalidated programs still cannot hurt the host. */
static void test_unvalidated_backward_branch(void **state)
{
	dif_instr_t p[] = { DIF_INSTR_NOP, DIF_INSTR_BRANCH(DIF_OP_BA, 0), DIF_INSTR_RET(0) };
	dif_difo_t d = difo(p, 3);
	dif_state_t st;
	uint64_t rv;

	(void)state;
	setup_state(&st);
	assert_int_equal(dif_emulate(&d, &st, &rv), DIF_FAULT_ILLOP);
	assert_int_equal(st.ds_fault.df_pc, 1);
}

static void test_unvalidated_wild_operands(void **state)
{
	dif_instr_t p[] = {
		DIF_INSTR_RRR(DIF_OP_ADD, 200, 201, 202),   /* registers masked */
		DIF_INSTR_SETX(500, 1),                     /* no integer table */
		DIF_INSTR_RET(0),
	};
	dif_difo_t d = difo(p, 3);
	dif_state_t st;
	uint64_t rv;

	(void)state;
	setup_state(&st);
	assert_int_equal(dif_emulate(&d, &st, &rv), DIF_FAULT_ILLOP);
	assert_int_equal(st.ds_fault.df_pc, 1);
}

static void test_fall_off_end(void **state)
{
	dif_instr_t p[] = { DIF_INSTR_NOP, DIF_INSTR_NOP };
	dif_difo_t d = difo(p, 2);
	dif_state_t st;
	uint64_t rv;

	(void)state;
	setup_state(&st);
	assert_int_equal(dif_emulate(&d, &st, &rv), DIF_FAULT_ILLOP);
	assert_int_equal(st.ds_fault.df_pc, 2);
}

static void test_no_scratch_buffer(void **state)
{
	dif_instr_t p[] = { DIF_INSTR_RR(DIF_OP_ALLOCS, 0, 1), DIF_INSTR_RET(1) };
	dif_difo_t d = difo(p, 2);
	dif_state_t st;
	uint64_t rv;

	(void)state;
	dif_hostenv_init(&henv);
	dif_state_init(&st, &henv.env, NULL, 0, 0);
	assert_int_equal(dif_emulate(&d, &st, &rv), DIF_FAULT_NOSCRATCH);
}

/* Destructive subroutines also need the run-time flag. */
static void test_copyout_needs_run_flag(void **state)
{
	dif_instr_t p[] = {
		DIF_INSTR_PUSHTV(0), DIF_INSTR_PUSHTV(0), DIF_INSTR_PUSHTV(0),
		DIF_INSTR_CALL(DIF_SUBR_COPYOUT, 1), DIF_INSTR_RET(1),
	};
	dif_difo_t d = difo(p, 5);
	dif_state_t st;
	uint64_t rv;

	(void)state;
	setup_state(&st);
	assert_int_equal(dif_validate(&d, DIF_VF_DESTRUCTIVE, NULL, NULL), 0);
	assert_int_equal(dif_emulate(&d, &st, &rv), DIF_FAULT_UPRIV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_init_defaults),
		cmocka_unit_test(test_counts_executed_instructions),
		cmocka_unit_test(test_fault_leaves_rval),
		cmocka_unit_test(test_tuple_stack_empty_after_run),
		cmocka_unit_test(test_scratch_accounting),
		cmocka_unit_test(test_unvalidated_backward_branch),
		cmocka_unit_test(test_unvalidated_wild_operands),
		cmocka_unit_test(test_fall_off_end),
		cmocka_unit_test(test_no_scratch_buffer),
		cmocka_unit_test(test_copyout_needs_run_flag),
		cmocka_unit_test(test_owned_strings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
