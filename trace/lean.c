/*
 * lean.c - the lean clause machine: what enabling can settle about a clause.
 *
 * Most of a firing's work in the general clause machine (probe.c) is
 * asking questions whose answers do not change while the ECB lives: has
 * the clause a predicate, which actions, what record layout, which of its
 * DIFOs run natively, does it read the probe's arguments at all.  At
 * enabling, dtrace_lean_ecb() answers them once for one ECB:
 *
 *   - dte_reads_args: some DIFO of the clause reads arg0..arg9 or args[]
 *     (ldgs of an argument, ldga).  A probe copies its arguments into the
 *     DIF machine only before the first ECB that reads them (probe.c), so
 *     `fbt:::entry { @ = count(); }` copies nothing.
 *   - dte_lean: the clause is one aggregation and nothing else (no record),
 *     on a probe that is not BEGIN, END or ERROR, its predicate (if any)
 *     and its integer keys run natively, and its value arguments run
 *     natively or are constants (`sum(1)` keeps no DIF at all: the value
 *     is read out of its setx here).  Such an ECB fires through
 *     dtrace_lean (probe.c's ecb_fire_lean): no act_ctx, no action walk,
 *     keys built straight into a stack buffer, and a keyless aggregation's
 *     value words found through the aggregation buffer's cache instead of
 *     a hash lookup.
 *   - dl_rec: the clause records only trace() of native integers (or is
 *     empty, the default action): a fixed layout, the header then a word
 *     per action, written without the action walk.
 *   - dte_fast: a lean count() (no key or one key, at most a predicate)
 *     whose native code is plain (needs only the arguments), or a keyless
 *     one-add, fires in dtrace_probe_frame's fast loop, before any firing
 *     state is set up; dte_fast_nargs is how many arguments it copies
 *     (the highest it reads + 1).
 *   - dl_cmp_op: such a count()'s predicate is exactly `argN OP constant`
 *     (lean_cmp says which DIF shapes): the fast loop compares the
 *     argument itself (probe.c's probe_fire_cmp) instead of calling the
 *     predicate's native code.
 *
 * What this does not do: anything at firing time, or change what a clause
 * does.  An ECB that fails any condition keeps the general machine, which
 * remains the reference for every clause; so does the lean one whenever
 * the consumer is not simply active (warm-up, draining, cool-down all go
 * through probe.c's checks, which for these probes decide "no firing").
 *
 * Context: dtrace_lean_ecb in thread context under dtrace_lock, after
 * dtrace_jit_ecb (it needs the native code) and before the ECB is linked.
 *
 * Tests: tests/d/lean; self-tests trace_fast_* (tests/kernel/trace_fast_selftest.c);
 *        tests/e2e/test_firing_trace.py (which path a firing
 *        takes); make bench (tools/bench_probe_effect.py)
 */
#include "kernel/klib.h"
#include "trace/trace_impl.h"

/* difo_constant: is dp `setx %rN, v; ret %rN` (a constant argument)?  Then *v. */
static bool difo_constant(const dif_difo_t *dp, int64_t *v)
{
	if (dp == NULL || dp->dd_ninsns != 2)
		return false;
	dif_instr_t a = dp->dd_insns[0], b = dp->dd_insns[1];
	if (DIF_INSTR_OP(a) != DIF_OP_SETX || DIF_INSTR_OP(b) != DIF_OP_RET ||
	    DIF_INSTR_RD(a) != DIF_INSTR_RD(b) || DIF_INSTR_INDEX(a) >= dp->dd_nints)
		return false;
	*v = (int64_t)dp->dd_inttab[DIF_INSTR_INDEX(a)];
	return true;
}

static bool difo_integer(const dif_difo_t *dp)
{
	return dp != NULL && dp->dd_rtype.dt_kind != DIF_TYPE_STRING &&
	       dp->dd_rtype.dt_kind != DIF_TYPE_BLOB;
}

/* lean_keys: each key an integer run natively; false if any is not. */
static bool lean_keys(dtrace_ecb_t *e, const dt_action *a, const dt_aggdesc *ag)
{
	struct dtrace_lean *l = &e->dte_lean;

	if (ag->ag_nkeys > DTRACE_LEAN_NKEYS || ag->ag_nkeys > a->ac_nargs)
		return false;
	for (uint32_t i = 0; i < ag->ag_nkeys; i++) {
		const dt_keytype *kt = &ag->ag_keys[i];
		if (kt->kt_string || kt->kt_kind == DT_KEY_STACK || kt->kt_kind == DT_KEY_USTACK ||
		    kt->kt_kind >= DT_KEY_USYM || !difo_integer(a->ac_args[i]))
			return false;
		if ((l->dl_key[i] = dtrace_jit_find(e, a->ac_args[i])) == NULL)
			return false;
	}
	l->dl_nkeys = (uint8_t)ag->ag_nkeys;
	return true;
}

/* lean_values: each value argument a constant or run natively. */
static bool lean_values(dtrace_ecb_t *e, const dt_action *a, const dt_aggdesc *ag)
{
	struct dtrace_lean *l = &e->dte_lean;
	uint32_t n = a->ac_nargs - ag->ag_nkeys;

	if (n > DTRACE_LEAN_NVALS)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		const dif_difo_t *dp = a->ac_args[ag->ag_nkeys + i];
		if (difo_constant(dp, &l->dl_const[i]))
			continue;                        /* dl_val[i] NULL: the constant */
		if (!difo_integer(dp) || (l->dl_val[i] = dtrace_jit_find(e, dp)) == NULL)
			return false;
	}
	l->dl_nvals = (uint8_t)n;
	return true;
}

/*
 * lean_addone: count() with at most one key is ecb_fire_lean_count's
 * (dl_count); a keyless count() or sum(constant) without a predicate is
 * one add (dl_addone).
 */
static void lean_addone(struct dtrace_lean *l, const dt_aggdesc *ag)
{
	l->dl_aggid = ag->ag_id;
	l->dl_count = ag->ag_func == DT_AGG_COUNT && l->dl_nvals == 0 && l->dl_nkeys <= 1 &&
	              (l->dl_nkeys == 1 || ag->ag_id < DTRACE_AGG_NOKEY);
	if (l->dl_pred != NULL || l->dl_nkeys != 0 || ag->ag_id >= DTRACE_AGG_NOKEY)
		return;
	if (ag->ag_func == DT_AGG_COUNT && l->dl_nvals == 0)
		l->dl_add = 1;
	else if (ag->ag_func == DT_AGG_SUM && l->dl_nvals == 1 && l->dl_val[0] == NULL)
		l->dl_add = l->dl_const[0];
	else
		return;
	l->dl_addone = true;
}


static bool probe_special(const dtrace_probe_t *p)
{
	return p->dtpr_id == dtrace_probeid_begin || p->dtpr_id == dtrace_probeid_end ||
	       p->dtpr_id == dtrace_probeid_error;
}

/* lean_plain: every native DIFO of e is plain arithmetic on its arguments (no DIF machine needed). */
static bool lean_plain(const dtrace_ecb_t *e)
{
	for (uint32_t i = 0; i < e->dte_njit; i++)
		if (!e->dte_jit[i].dj_plain)
			return false;
	return true;
}

/*
 * lean_record: a clause of trace() actions of native integers only (or of
 * none: the default action's record): its record is the header and one
 * word per action, fixed at enabling (dl_rec, dl_key[] the values).
 */
static void lean_record(dtrace_ecb_t *e)
{
	const dt_clause *cl = e->dte_cl;
	struct dtrace_lean *l = &e->dte_lean;

	if (cl->cl_speculative || cl->cl_nacts > DTRACE_LEAN_NKEYS ||
	    e->dte_size != sizeof(dtrace_rechdr_t) + 8 * cl->cl_nacts)
		return;
	for (uint32_t i = 0; i < cl->cl_nacts; i++) {
		const dt_action *a = &cl->cl_acts[i];
		if (a->ac_kind != DT_ACT_TRACE || a->ac_nargs != 1 || !difo_integer(a->ac_args[0]) ||
		    (l->dl_key[i] = dtrace_jit_find(e, a->ac_args[0])) == NULL)
			return;
	}
	l->dl_nkeys = (uint8_t)cl->cl_nacts;
	l->dl_prepare = !lean_plain(e);
	l->dl_rec = true;
	e->dte_lean_on = true;
}

/* lean_nargs: how many of arg0..arg5 the fast loop copies for cl (the highest read + 1; args[]: all). */
static uint8_t lean_nargs(const dt_clause *cl)
{
	if (dtrace_clause_reads(cl, DIF_VAR_ARG0 + 6, DIF_VAR_ARG9, true))
		return 6;                                /* args[], or arg6..arg9 (which stay 0) */
	for (uint8_t n = 6; n > 0; n--)
		if (dtrace_clause_reads(cl, DIF_VAR_ARG0 + n - 1, DIF_VAR_ARG0 + n - 1, false))
			return n;
	return 0;
}

/* lean_is_true_tail: insns i[0..3] are `bOP L; setx 1, %rc; ret %rc; L: ret %r0`, L at label. */
static bool lean_is_true_tail(const dif_difo_t *d, const dif_instr_t *i, uint32_t label)
{
	uint32_t br = DIF_INSTR_OP(i[0]), one = DIF_INSTR_INDEX(i[1]), rc = DIF_INSTR_RD(i[1]);

	return br >= DIF_OP_BE && br <= DIF_OP_BLEU && DIF_INSTR_LABEL(i[0]) == label &&
	       DIF_INSTR_OP(i[1]) == DIF_OP_SETX && one < d->dd_nints && d->dd_inttab[one] == 1 &&
	       rc != 0 && i[2] == DIF_INSTR_RET(rc) && i[3] == DIF_INSTR_RET(0);
}

/*
 * lean_cmp: is the predicate d exactly one of the compiler's shapes of
 * `argN OP constant` (N < 6)?
 *     ldgs argN, %ra; setx C, %rb; cmp %ra, %rb; bOP L; setx 1, %rc; ret %rc; L: ret %r0
 *     ldgs argN, %ra; tst %ra; bOP L; setx 1, %rc; ret %rc; L: ret %r0     (C is 0)
 *     ldgs argN, %ra; ret %ra                                             (argN != 0)
 * Then the fast loop compares the argument itself instead of calling the
 * predicate's native code (dl_cmp_op: the branch that makes it false; tst
 * sets the codes cmp with 0 would).  Only with the JIT on (l->dl_pred
 * made): -x jit=0 keeps every DIFO on the interpreter.  Nothing here can
 * fault.
 */
static void lean_cmp(struct dtrace_lean *l, const dif_difo_t *d)
{
	const dif_instr_t *i = d->dd_insns;
	uint32_t n = d->dd_ninsns, var = n > 0 ? DIF_INSTR_INDEX(i[0]) : 0, ra = n > 0 ? DIF_INSTR_RD(i[0]) : 0;
	uint32_t op;
	uint64_t c = 0;

	if (l->dl_pred == NULL || n < 2 || DIF_INSTR_OP(i[0]) != DIF_OP_LDGS || var < DIF_VAR_ARG0 ||
	    var >= DIF_VAR_ARG0 + 6 || ra == 0)
		return;
	if (n == 2 && i[1] == DIF_INSTR_RET(ra)) {
		op = DIF_OP_BE;
	} else if (n == 6 && i[1] == DIF_INSTR_TST(ra) && lean_is_true_tail(d, &i[2], 5)) {
		op = DIF_INSTR_OP(i[2]);
	} else {
		uint32_t rb = n == 7 ? DIF_INSTR_RD(i[1]) : 0, cx = n == 7 ? DIF_INSTR_INDEX(i[1]) : 0;
		if (n != 7 || DIF_INSTR_OP(i[1]) != DIF_OP_SETX || cx >= d->dd_nints || rb == 0 || rb == ra ||
		    i[2] != DIF_INSTR_CMP(DIF_OP_CMP, ra, rb) || !lean_is_true_tail(d, &i[3], 6))
			return;
		op = DIF_INSTR_OP(i[3]);
		c = d->dd_inttab[cx];
	}
	l->dl_cmp_op = (uint8_t)op;
	l->dl_cmp_arg = (uint8_t)(var - DIF_VAR_ARG0);
	l->dl_cmp_val = c;
}

/*
 * lean_fast: the fast loop's kind for a lean ECB (dte_fast): a keyless
 * one-add, or count() with at most a key and a predicate that are plain
 * native code (they need only the arguments, which the loop copies).
 */
static void lean_fast(dtrace_ecb_t *e)
{
	const struct dtrace_lean *l = &e->dte_lean;

	if (!e->dte_lean_on || e->dte_bag || l->dl_prepare || l->dl_rec)
		return;
	if (l->dl_addone && e->dte_state->dts_opts.dov_cpu < 0)   /* the one-adds check no -x cpu */
		e->dte_fast = DTRACE_FAST_ADD;
	else if (l->dl_addone)
		e->dte_fast = DTRACE_FAST_COUNT;         /* a keyless count() or sum(constant) */
	else if (l->dl_count)
		e->dte_fast = DTRACE_FAST_COUNT;
	if (e->dte_fast == DTRACE_FAST_COUNT && e->dte_cl->cl_pred != NULL)
		lean_cmp(&e->dte_lean, e->dte_cl->cl_pred);
	e->dte_fast_nargs = lean_nargs(e->dte_cl);
}

void dtrace_lean_ecb(dtrace_ecb_t *e)
{
	const dt_clause *cl = e->dte_cl;
	struct dtrace_lean *l = &e->dte_lean;
	dtrace_state_t *s = e->dte_state;

	e->dte_reads_args = dtrace_clause_reads(cl, DIF_VAR_ARG0, DIF_VAR_ARG9, true);
	e->dte_fast = DTRACE_FAST_NONE;
	memset(l, 0, sizeof(*l));
	if (probe_special(e->dte_probe))
		return;
	if (cl->cl_pred != NULL && (l->dl_pred = dtrace_jit_find(e, cl->cl_pred)) == NULL)
		return;
	if (!e->dte_lone_agg) {
		lean_record(e);
		return;
	}
	const dt_action *a = &cl->cl_acts[0];
	const struct dtrace_aggshape *shape = &s->dts_aggshape[a->ac_aggs[0]];
	if (shape->das_keylen > 8 * DTRACE_LEAN_NKEYS || !lean_keys(e, a, shape->das_desc) ||
	    !lean_values(e, a, shape->das_desc))
		return;
	l->dl_shape = shape;
	l->dl_prepare = !lean_plain(e);
	e->dte_lean_on = true;
	lean_addone(l, shape->das_desc);
	lean_fast(e);
}
