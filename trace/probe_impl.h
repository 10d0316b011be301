/*
 * trace/probe_impl.h: what the firing paths share, and nothing else.
 *
 * A probe fires down one of three paths, each in its own file:
 *   trace/probe_fast.c  dtrace_probe_frame (fbt, sdt): the ECBs enabling
 *                       made fast (dte_fast, lean.c), with no firing state;
 *   trace/probe.c       the general path: dtrace_probe, dtrace_probe_user,
 *                       and whatever the fast loop hands over (every
 *                       action, errors, speculations);
 *   trace/probe_lean.c  the lean ECBs the general path meets (one
 *                       aggregation or trace() of native integers);
 * and trace/probe_env.c is the DIF machine's view of the firing (memory,
 * built-in variables, stack walks).
 *
 * Every entry point makes the same checks first, in probe_enter: this CPU
 * is not running a consumer's own code, the probe has an ECB, and this CPU
 * is not already inside a firing (counted).  The functions here are
 * inlined where they are called, so a check is written once and costs
 * what it cost when it was written out in each path; fire_lean (the lean
 * path's choice of shape), dif_prepare and record_start are here for the
 * same reason: called across files, they cost an empty clause 24 more
 * instructions (tools/bench_probe_effect.py's fbt_entry_empty).
 *
 * Context: probe context (interrupts off, no sleeping, no locks).
 * Only the four firing files include it.
 */
#ifndef TRACE_PROBE_IMPL_H
#define TRACE_PROBE_IMPL_H

#include "arch/arch.h"
#include "kernel/cpu.h"
#include "kernel/thread.h"
#include "trace/trace_impl.h"

/* Each CPU's firing state: firing[cpu] is a lea and a shift (trace_impl.h). */
extern dtrace_firing_t dtrace_firing[MAX_CPUS];

/* jit_run: a DIFO translated at enabling (jit.c); a fault in ds_fault, as the interpreter's. */
static inline int jit_run(dtrace_firing_t *f, dif_jit_fn fn, uint64_t *v)
{
	return fn(&f->df_dif, v);
}

/*
 * consumer_running: is this CPU running a consumer's own code (a thread
 * marked untraced, not an interrupt on top of it)?  Its probes do not fire
 * there, except BEGIN and END, which it fires itself: to DTrace a consumer
 * is a user process, whose work fbt and sdt do not see (docs/tracing.md).
 */
static inline bool consumer_running(int cpu, dtrace_id_t id)
{
	const struct cpu *c = &cpus[cpu];

	return __builtin_expect(c->cpu_thread->t_untraced, 0) && c->cpu_intr_depth == 0 &&
	       id != dtrace_probeid_begin && id != dtrace_probeid_end;
}

/*
 * probe_enter: every firing's first checks.  The probe to fire, or NULL:
 * the consumer's own work (asked first: it reads only this CPU's
 * state), no ECB, or a re-entry on this CPU (counted in df_reentries).
 */
static inline __attribute__((always_inline)) dtrace_probe_t *probe_enter(dtrace_firing_t *f,
                                                                        dtrace_id_t id, int cpu)
{
	if (consumer_running(cpu, id))
		return NULL;
	dtrace_probe_t *p = dtrace_probe_get(id);
	if (p == NULL || p->dtpr_ecb == NULL)
		return NULL;
	if (f->df_inprobe) {
		f->df_reentries++;
		return NULL;
	}
	return p;
}

/* The general path (probe.c), for the fast loop. */
void dtrace_fire_rest(dtrace_ecb_t *e, int cpu, const uint64_t args[6], int action);

/* The lean path's three shapes (probe_lean.c), chosen by fire_lean below. */
void dtrace_fire_lean_agg(dtrace_firing_t *f, dtrace_ecb_t *ecb);
void dtrace_fire_lean_count(dtrace_firing_t *f, dtrace_ecb_t *ecb, bool pred_done);
void dtrace_fire_lean_rec(dtrace_firing_t *f, dtrace_ecb_t *ecb);

/* The DIF machine's view (probe_env.c): the stack from the firing's frame, at most max PCs. */
int dtrace_stack_walk(dtrace_firing_t *f, uint64_t *pcs, int max);

/*
 * dif_prepare: the DIF machine for one clause of state s, set up at the
 * clause's first DIFO (a clause without DIF never pays for it).  Only what
 * differs between clauses is written: the arguments are in ds_args already
 * (probe_fire put them there), and rand()'s state lives on across firings,
 * seeded from the cycle counter once per CPU, not once per clause.
 */
static inline void dif_prepare(dtrace_firing_t *f, dtrace_state_t *s)
{
	dif_state_t *st = &f->df_dif;
	uint32_t strsize = s->dts_opts.dov_strsize;

	st->ds_env = &s->dts_env;
	st->ds_scratch = s->dts_scratch[f->df_cpu];
	st->ds_scratch_size = TRACE_SCRATCH_SIZE - 2048;
	st->ds_scratch_used = 0;
	st->ds_strsize = strsize ? strsize : DIF_STRSIZE_DEFAULT;
	st->ds_flags = s->dts_opts.dov_destructive ? DIF_RUN_DESTRUCTIVE : 0;
	st->ds_strtok = 0;
	st->ds_nowned = 0;                       /* owned ranges are the clause's (probe_env.c) */
	f->df_okpage = 0;                        /* and so is dtrace_load's checked page */
	if (__builtin_expect(st->ds_rand == 0, 0))
		st->ds_rand = (arch_cycles() ^ (uint64_t)f->df_cpu) | 1;
}

/* record_start: a clause's record in the principal buffer (NULL: dropped and counted). */
static inline uint8_t *record_start(dtrace_firing_t *f, dtrace_ecb_t *ecb)
{
	dtrace_state_t *s = ecb->dte_state;
	uint8_t *rec = dtrace_buffer_reserve(s, &s->dts_buf[f->df_cpu], ecb->dte_size,
	                                     ecb->dte_class);

	if (rec != NULL)
		*(dtrace_rechdr_t *)rec = (dtrace_rechdr_t){ ecb->dte_epid, ecb->dte_size };
	return rec;
}

/*
 * lean_run: one native DIFO of a lean clause into *v; a fault is reported
 * as action's (0: the predicate) and ends the clause (false).
 */
static inline bool lean_run(dtrace_firing_t *f, dtrace_ecb_t *ecb, dif_jit_fn fn, uint32_t action,
                            uint64_t *v)
{
	if (__builtin_expect(jit_run(f, fn, v) == 0, 1))
		return true;
	dtrace_error(ecb, action, &f->df_dif.ds_fault);
	return false;
}

/*
 * fire_lean: a lean ECB's firing, from probe_fire's loop (probe.c).  The
 * consumer's phase and -x cpu first (a lean ECB is on no BEGIN, END or
 * ERROR probe, so only an active consumer takes it); then a keyless count() or sum() of a constant with
 * no predicate (dl_add) is one add to the cached value word; a count()'s
 * plain predicate runs here, so a false one costs no more calls; anything
 * else, or the first firing on this CPU, is dtrace_fire_lean_count's or
 * dtrace_fire_lean_agg's (probe_lean.c).
 */
static inline void fire_lean(dtrace_firing_t *f, dtrace_ecb_t *ecb)
{
	dtrace_state_t *s = ecb->dte_state;

	if (s->dts_activity != DTRACE_ACT_ACTIVE ||
	    (s->dts_opts.dov_cpu >= 0 && f->df_cpu != s->dts_opts.dov_cpu))
		return;
	if (ecb->dte_lean.dl_addone) {
		int64_t *v = s->dts_agg[f->df_cpu].dta_nokey[ecb->dte_lean.dl_aggid];
		if (__builtin_expect(v != NULL, 1)) {
			v[0] += ecb->dte_lean.dl_add;
			return;
		}
	}
	if (ecb->dte_lean.dl_rec) {
		dtrace_fire_lean_rec(f, ecb);
	} else if (ecb->dte_lean.dl_count) {
		uint64_t v;
		bool pred = ecb->dte_lean.dl_pred != NULL && !ecb->dte_lean.dl_prepare;
		if (pred && (!lean_run(f, ecb, ecb->dte_lean.dl_pred, 0, &v) || v == 0))
			return;                          /* a plain predicate, false: nothing more */
		dtrace_fire_lean_count(f, ecb, pred);
	} else {
		dtrace_fire_lean_agg(f, ecb);
	}
}

#endif
