/*
 * probe_lean.c - the lean firing path: an ECB whose clause enabling
 * settled (lean.c) fires here, from the general path's loop, with none of
 * the general path's questions asked again.
 *
 * Three shapes: one aggregation (a native predicate, native integer keys
 * built on the stack, native or constant values, a keyless aggregation's
 * value from the buffer's cache); count() with at most one integer key,
 * the commonest; and a record of trace() actions of native integers.  Each
 * gives exactly the general path's result: the same record, the same
 * aggregation entry, the same fault reported for the same action.
 *
 * Context: probe context (interrupts off, no sleeping, no locks), inside
 * probe_fire (probe.c), which has set up the firing state.
 *
 * Tests: tests/d/lean (each shape against the general path, -x jit=0),
 *        self-test trace_fast_*; tools/bench_probe_effect.py (its cost)
 */
#include "kernel/klib.h"
#include "trace/probe_impl.h"

/*
 * dtrace_fire_lean_agg: an ECB whose clause is one aggregation that enabling
 * settled (lean.c): a native predicate, native integer keys built on the
 * stack, native or constant values, and a keyless aggregation's values
 * from the buffer's cache.  The same result as ecb_fire's, with none of
 * its questions asked again.
 */
__attribute__((noinline)) void dtrace_fire_lean_agg(dtrace_firing_t *f, dtrace_ecb_t *ecb)
{
	const struct dtrace_lean *l = &ecb->dte_lean;
	dtrace_state_t *s = ecb->dte_state;
	uint64_t key[DTRACE_LEAN_NKEYS], v;
	int64_t args[DTRACE_LEAN_NVALS];

	f->df_ecb = ecb;
	f->df_dif.ds_fault.df_code = 0;
	if (l->dl_prepare)
		dif_prepare(f, s);
	if (l->dl_pred != NULL && (!lean_run(f, ecb, l->dl_pred, 0, &v) || v == 0))
		return;
	for (uint32_t i = 0; i < l->dl_nkeys; i++)
		if (!lean_run(f, ecb, l->dl_key[i], 1, &key[i]))
			return;
	for (uint32_t i = 0; i < l->dl_nvals; i++) {
		args[i] = l->dl_const[i];
		if (l->dl_val[i] != NULL && !lean_run(f, ecb, l->dl_val[i], 1, (uint64_t *)&args[i]))
			return;
	}
	dtrace_aggbuf_t *buf = &s->dts_agg[f->df_cpu];
	const struct dtrace_aggshape *shape = l->dl_shape;
	const dt_aggdesc *ag = shape->das_desc;
	int64_t *vals;
	if (l->dl_nkeys == 0) {
		vals = ag->ag_id < DTRACE_AGG_NOKEY ? buf->dta_nokey[ag->ag_id] : NULL;
		if (vals == NULL && (vals = dtrace_agg_nokey(buf, shape)) == NULL)
			return;                          /* full: dropped and counted */
	} else if (l->dl_nkeys == 1) {
		if ((vals = dtrace_agg_word(buf, shape, key[0])) == NULL)
			return;
	} else {
		uint32_t bucket;
		vals = dtrace_agg_find(buf, shape, (const uint8_t *)key, &bucket);
		if (vals == NULL && (vals = dtrace_agg_insert(buf, shape, (const uint8_t *)key, bucket)) == NULL)
			return;
	}
	dtrace_agg_apply(ag, vals, args, l->dl_nvals);
}

/*
 * dtrace_fire_lean_count: count() with at most one integer key, the
 * commonest lean shape: the predicate, the key, and one add to the value
 * word (the cached one when keyless).  dtrace_fire_lean_agg's result.
 */
__attribute__((noinline)) void dtrace_fire_lean_count(dtrace_firing_t *f, dtrace_ecb_t *ecb,
                                                    bool pred_done)
{
	const struct dtrace_lean *l = &ecb->dte_lean;
	dtrace_aggbuf_t *buf = &ecb->dte_state->dts_agg[f->df_cpu];
	uint64_t v, k;
	int64_t *vals;

	if (l->dl_prepare) {
		f->df_ecb = ecb;
		dif_prepare(f, ecb->dte_state);
	}
	if (!pred_done && l->dl_pred != NULL && (!lean_run(f, ecb, l->dl_pred, 0, &v) || v == 0))
		return;
	if (l->dl_nkeys == 0) {
		vals = buf->dta_nokey[l->dl_aggid];
		if (vals == NULL)
			vals = dtrace_agg_nokey(buf, l->dl_shape);
	} else {
		if (!lean_run(f, ecb, l->dl_key[0], 1, &k))
			return;
		vals = dtrace_agg_word(buf, l->dl_shape, k);
	}
	if (vals != NULL)                            /* NULL: full, dropped and counted */
		vals[0]++;
}

/*
 * dtrace_fire_lean_rec: a clause of trace() actions of native integers (or
 * none): the record reserved, its words written in action order; a fault
 * voids it and reports its action, as actions_run does.
 */
__attribute__((noinline)) void dtrace_fire_lean_rec(dtrace_firing_t *f, dtrace_ecb_t *ecb)
{
	const struct dtrace_lean *l = &ecb->dte_lean;
	uint64_t v;

	f->df_ecb = ecb;
	if (l->dl_prepare)
		dif_prepare(f, ecb->dte_state);
	if (l->dl_pred != NULL && (!lean_run(f, ecb, l->dl_pred, 0, &v) || v == 0))
		return;
	uint8_t *rec = record_start(f, ecb);
	if (rec == NULL)
		return;                              /* dropped and counted */
	uint64_t *out = (uint64_t *)(rec + sizeof(dtrace_rechdr_t));
	for (uint32_t i = 0; i < l->dl_nkeys; i++) {
		if (__builtin_expect(jit_run(f, l->dl_key[i], &v) != 0, 0)) {
			((dtrace_rechdr_t *)rec)->dtrh_epid = 0;  /* void: the consumer skips it */
			dtrace_error(ecb, i + 1, &f->df_dif.ds_fault);
			return;
		}
		memcpy(&out[i], &v, 8);
	}
}
