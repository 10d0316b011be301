/*
 * probe_fast.c - the fast firing path: dtrace_probe_frame (fbt, sdt, and
 * every provider that fires from a trap or a call site with a frame).
 *
 * dtrace_probe_frame makes every firing's first checks (probe_enter,
 * trace/probe_impl.h), then runs the ECBs that enabling made fast
 * (dte_fast, lean.c) before any firing state is set up: a keyless count()
 * or sum(constant) without predicate is one add to the cached value word,
 * in dtrace_probe_frame itself; a lean count() with a plain native
 * predicate and at most one native key copies only the arguments it reads
 * and runs them (probe_fire_count for the chain's last ECB, probe_fire_more's
 * loop otherwise).  The same checks come first (re-entry, the consumer's
 * own thread, the consumer's phase, -x cpu), and at the first ECB the loop
 * cannot finish (any other clause, a first firing that must make the value
 * entry, a fault, vtimestamp being kept) the general path (probe.c's
 * dtrace_fire_rest) takes over from that ECB, reporting a fault the loop
 * met as it would have.  df_fast counts the firings the loop did alone.
 *
 * Every function here is written for its instruction count
 * (docs/providers.md's table, checked by make check's figures-check): the
 * entry point keeps few registers, and each shape of chain has its own
 * out-of-line function so that the commonest shapes set up no loop.
 *
 * Context: probe context (interrupts off, no sleeping, no locks).
 *
 * Tests: self-tests trace_fast_* (tests/kernel/trace_fast_selftest.c);
 *        tests/d/lean, tests/d/fbt; tools/bench_probe_effect.py (cost)
 */
#include "trace/probe_impl.h"

/*
 * fast_count_add: the add of a fast COUNT ECB once its predicate passed:
 * its key's native code, then the value word (the keyless cache, or
 * dtrace_agg_word's), incremented (by dl_add for a one-add).  Returns -1 done (a full buffer's drop
 * counted), 1 the key faulted (in ds_fault), 2 the keyless cache is empty
 * (the general path makes the entry).
 */
static inline __attribute__((always_inline)) int fast_count_add(dtrace_firing_t *f,
                                                               const dtrace_ecb_t *e,
                                                               dtrace_aggbuf_t *buf)
{
	const struct dtrace_lean *l = &e->dte_lean;
	int64_t *vals;
	uint64_t k;

	if (l->dl_nkeys == 0) {
		if ((vals = buf->dta_nokey[l->dl_aggid]) == NULL)
			return 2;
	} else {
		if (__builtin_expect(jit_run(f, l->dl_key[0], &k) != 0, 0))
			return 1;
		if ((vals = dtrace_agg_word(buf, l->dl_shape, k)) == NULL)
			return -1;                   /* full: dropped and counted */
	}
	vals[0] += l->dl_addone ? l->dl_add : 1;     /* a one-add under -x cpu, or count() */
	return -1;
}

/*
 * probe_fire_fast: the ECBs from e that enabling made fast (dte_fast,
 * lean.c), fired before any firing state is set up: no clause-locals, no
 * frame, no timestamp; only a COUNT ECB's arguments are copied (as many
 * as it reads).  Consumer phase and -x cpu as fire_lean (probe_impl.h) checks
 * them.  Returns NULL when every ECB is done, else the ECB the general
 * path goes on from, with *action >= 0 if that ECB faulted in action
 * *action (its clause is over; probe_fire reports it).
 */
static inline __attribute__((always_inline)) dtrace_ecb_t *probe_fire_fast(dtrace_firing_t *f,
                                                                          dtrace_ecb_t *e, int cpu,
                                                                          const uint64_t *args,
                                                                          int *action)
{
	for (; e != NULL; e = e->dte_next) {
		dtrace_state_t *s = e->dte_state;
		uint8_t kind = e->dte_fast;
		if (kind == DTRACE_FAST_NONE)
			return e;
		if (s->dts_activity != DTRACE_ACT_ACTIVE ||
		    (s->dts_opts.dov_cpu >= 0 && cpu != s->dts_opts.dov_cpu))
			continue;
		dtrace_aggbuf_t *buf = &s->dts_agg[cpu];
		if (kind == DTRACE_FAST_ADD) {
			int64_t *v = buf->dta_nokey[e->dte_lean.dl_aggid];
			if (__builtin_expect(v == NULL, 0))
				return e;                /* the first firing here: the general path makes it */
			v[0] += e->dte_lean.dl_add;
			continue;
		}
		for (uint32_t i = 0; i < e->dte_fast_nargs; i++)
			f->df_dif.ds_args[i] = args[i];
		uint64_t v;
		if (e->dte_lean.dl_pred != NULL) {
			if (__builtin_expect(jit_run(f, e->dte_lean.dl_pred, &v) != 0, 0)) {
				*action = 0;
				return e;
			}
			if (v == 0)
				continue;
		}
		int rc = fast_count_add(f, e, buf);
		if (__builtin_expect(rc >= 0, 0)) {
			*action = rc == 1 ? 1 : -1;
			return e;
		}
	}
	return NULL;
}

/*
 * probe_fire_more: a kernel firing from ECB e on (of e's probe), the fast
 * loop first (unless vtimestamp is kept: it does not charge the thread),
 * then the general path (dtrace_fire_rest).  The frame is in f already.
 */
static __attribute__((noinline)) void probe_fire_more(dtrace_ecb_t *e, int cpu, const uint64_t args[6])
{
	dtrace_firing_t *f = &dtrace_firing[cpu];
	int action = -1;

	if (__builtin_expect(dtrace_vtime_active == 0, 1)) {
		e = probe_fire_fast(f, e, cpu, args, &action);
		if (e == NULL) {
			f->df_fast++;
			f->df_frame_pc = 0;
			return;
		}
	}
	dtrace_fire_rest(e, cpu, args, action);
}

/* fast_done: the end of a firing the fast loop did alone. */
static inline void fast_done(dtrace_firing_t *f)
{
	f->df_fast++;
	f->df_frame_pc = 0;
}

/*
 * fast_key_add: a fast COUNT's key, once its predicate passed: its native
 * code, then the value word under it, found or made (dtrace_agg_word),
 * incremented; a fault is the general path's to report (action 1).
 */
static inline __attribute__((always_inline)) void fast_key_add(dtrace_ecb_t *e, dtrace_firing_t *f,
                                                               int cpu, const uint64_t args[6])
{
	uint64_t k;

	if (__builtin_expect(jit_run(f, e->dte_lean.dl_key[0], &k) != 0, 0)) {
		dtrace_fire_rest(e, cpu, args, 1);
		return;
	}
	int64_t *vals = dtrace_agg_word(&e->dte_state->dts_agg[cpu], e->dte_lean.dl_shape, k);
	if (vals != NULL)                            /* NULL: full, dropped and counted */
		vals[0]++;
	fast_done(f);
}

/* fast_ready: e's consumer active, -x cpu allows it; its arguments copied (as many as it reads). */
static inline __attribute__((always_inline)) bool fast_ready(const dtrace_ecb_t *e, dtrace_firing_t *f,
                                                             int cpu, const uint64_t args[6])
{
	const dtrace_state_t *s = e->dte_state;

	if (s->dts_activity != DTRACE_ACT_ACTIVE ||
	    (s->dts_opts.dov_cpu >= 0 && cpu != s->dts_opts.dov_cpu))
		return false;
	uint32_t n = e->dte_fast_nargs;
	if (n == 1)
		f->df_dif.ds_args[0] = args[0];          /* the commonest: arg0 alone */
	else
		for (uint32_t i = 0; i < n; i++)
			f->df_dif.ds_args[i] = args[i];
	return true;
}

/* probe_fire_key: fast_key_add out of line, after probe_fire_count's predicate. */
static __attribute__((noinline)) void probe_fire_key(dtrace_ecb_t *e, dtrace_firing_t *f, int cpu,
                                                     const uint64_t args[6])
{
	fast_key_add(e, f, cpu, args);
}

/* probe_fire_keyed: the chain's last ECB, e, is a fast count() with a key and no predicate. */
static __attribute__((noinline)) void probe_fire_keyed(dtrace_ecb_t *e, dtrace_firing_t *f, int cpu,
                                                       const uint64_t args[6])
{
	if (fast_ready(e, f, cpu, args))
		fast_key_add(e, f, cpu, args);
	else
		fast_done(f);
}

/*
 * cmp_false: would the predicate `a OP b` (lean.c's dl_cmp_op: the DIF
 * branch that makes it false) branch, i.e. is the predicate false?  The
 * same signed and unsigned meanings as DIF's cmp and branches.
 */
static inline bool cmp_false(uint8_t op, uint64_t a, uint64_t b)
{
	switch (op) {
	case DIF_OP_BE:   return a == b;
	case DIF_OP_BNE:  return a != b;
	case DIF_OP_BG:   return (int64_t)a > (int64_t)b;
	case DIF_OP_BGU:  return a > b;
	case DIF_OP_BGE:  return (int64_t)a >= (int64_t)b;
	case DIF_OP_BGEU: return a >= b;
	case DIF_OP_BL:   return (int64_t)a < (int64_t)b;
	case DIF_OP_BLU:  return a < b;
	case DIF_OP_BLE:  return (int64_t)a <= (int64_t)b;
	default:          return a <= b;           /* DIF_OP_BLEU */
	}
}

/*
 * probe_fire_count: probe_fire_more for a chain whose last ECB, e, is a
 * fast COUNT (the commonest: one clause with a predicate or a key), with
 * no loop to set up.  Across the predicate's call e, cpu and args wait in
 * f (df_ecb, df_fast_args, df_cpu), so that this saves registers.
 */
/* fast_count_pass: a fast COUNT whose predicate passed: under its key, or the cached value word. */
static inline __attribute__((always_inline)) void fast_count_pass(dtrace_ecb_t *e, dtrace_firing_t *f,
                                                                  int cpu, const uint64_t args[6])
{
	if (e->dte_lean.dl_nkeys != 0) {
		probe_fire_key(e, f, cpu, args);
		return;
	}
	int64_t *vals = e->dte_state->dts_agg[cpu].dta_nokey[e->dte_lean.dl_aggid];
	if (__builtin_expect(vals == NULL, 0)) {
		dtrace_fire_rest(e, cpu, args, -1);      /* the first firing here: the general path makes it */
		return;
	}
	vals[0] += e->dte_lean.dl_addone ? e->dte_lean.dl_add : 1;
	fast_done(f);
}

static __attribute__((noinline)) void probe_fire_count(dtrace_ecb_t *e, dtrace_firing_t *f, int cpu,
                                                       const uint64_t args[6])
{
	uint64_t v;

	if (!fast_ready(e, f, cpu, args)) {
		fast_done(f);
		return;
	}
	if (e->dte_lean.dl_pred != NULL) {
		f->df_ecb = e;
		f->df_fast_args = args;
		f->df_cpu = cpu;
		int rc = jit_run(f, e->dte_lean.dl_pred, &v);
		e = f->df_ecb;
		args = f->df_fast_args;
		cpu = f->df_cpu;
		if (__builtin_expect(rc != 0, 0)) {
			dtrace_fire_rest(e, cpu, args, 0);
			return;
		}
		if (v == 0) {
			fast_done(f);
			return;
		}
	}
	fast_count_pass(e, f, cpu, args);
}

/*
 * probe_fire_cmp: probe_fire_count for a predicate that is `argN OP
 * constant` (lean.c's dl_cmp_op): the comparison made here, no native
 * code called, so a false predicate costs a few instructions and no frame.
 */
static __attribute__((noinline)) void probe_fire_cmp(dtrace_ecb_t *e, dtrace_firing_t *f, int cpu,
                                                     const uint64_t args[6])
{
	const struct dtrace_lean *l = &e->dte_lean;

	if (!fast_ready(e, f, cpu, args) || cmp_false(l->dl_cmp_op, args[l->dl_cmp_arg], l->dl_cmp_val)) {
		fast_done(f);
		return;
	}
	fast_count_pass(e, f, cpu, args);
}

/*
 * dtrace_probe_frame: probe_enter's checks, then the keyless one-adds
 * (DTRACE_FAST_ADD) at the head of the chain, here, with no call and no
 * state; anything else is probe_fire_more's.  f->df_fast counts the
 * firings the fast loop did alone (tests/kernel/trace_fast_selftest.c).
 */
void dtrace_probe_frame(dtrace_id_t id, int cpu, const uint64_t args[6], uint64_t pc, uint64_t fp,
                        const uint64_t *retslot)
{
	uint32_t c = (uint32_t)cpu;                  /* an index: no sign extension to keep */
	dtrace_firing_t *f = &dtrace_firing[c];
	dtrace_probe_t *p = probe_enter(f, id, (int)c);

	if (p == NULL)
		return;
	f->df_frame_pc = pc;                         /* stored now: fewer registers to keep */
	f->df_frame_fp = fp;
	f->df_frame_ret = retslot;
	dtrace_ecb_t *e = p->dtpr_ecb;
	if (__builtin_expect(dtrace_vtime_active == 0, 1)) {
		for (; e != NULL && e->dte_fast == DTRACE_FAST_ADD; e = e->dte_next) {
			dtrace_state_t *s = e->dte_state;   /* without -x cpu (lean.c) */
			if (s->dts_activity != DTRACE_ACT_ACTIVE)
				continue;
			int64_t *v = s->dts_agg[c].dta_nokey[e->dte_lean.dl_aggid];
			if (__builtin_expect(v == NULL, 0))
				break;                   /* the first firing here: the general path makes it */
			v[0] += e->dte_lean.dl_add;
		}
		if (e == NULL) {
			f->df_fast++;
			f->df_frame_pc = 0;
			return;
		}
	}
	if (e->dte_fast == DTRACE_FAST_NONE)
		dtrace_fire_rest(e, cpu, args, -1);       /* the general path at once */
	else if (e->dte_next == NULL && dtrace_vtime_active == 0 && e->dte_lean.dl_pred == NULL &&
	         e->dte_lean.dl_nkeys != 0)
		probe_fire_keyed(e, f, cpu, args);       /* count() under one key */
	else if (e->dte_next == NULL && dtrace_vtime_active == 0 && e->dte_lean.dl_cmp_op != 0)
		probe_fire_cmp(e, f, cpu, args);         /* a COUNT behind `argN OP constant` */
	else if (e->dte_next == NULL && dtrace_vtime_active == 0)
		probe_fire_count(e, f, cpu, args);       /* a COUNT, or a one-add whose first firing this is */
	else
		probe_fire_more(e, cpu, args);
}
