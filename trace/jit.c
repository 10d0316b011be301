/*
 * jit.c - DIF programs translated to native code at enabling time.
 *
 * When a consumer's option jit is on (the default; -x jit=0 turns it off),
 * enabling an ECB asks the machine's translator (dif/dif_jit.h) for its
 * predicate, then for its actions' DIFOs (values, keys, arguments) in
 * order, up to DTRACE_ECB_NJIT of them.  A DIFO the translator takes is copied
 * into the kernel's JIT area (arch_jit_install, W^X text written through
 * the patching alias) and run natively from then on; any other stays on the
 * interpreter, which remains the reference for everything.  Only DIFOs
 * that prog_check() validated are offered.
 *
 * A translated DIFO reports its faults as the interpreter does (code, pc
 * and address in ds_fault, so ERROR's arguments are the same).  One that
 * is plain arithmetic on the probe's arguments (dj_plain) needs none of
 * the DIF machine's per-clause state; any other (loads, variables,
 * built-ins, subroutines: call-outs into the interpreter's code) runs
 * once probe.c has set the machine up for the clause, as the interpreter
 * would.
 *
 * The area is reused once no ECB has native code any more (dtrace_jit_free,
 * called as ECBs are freed, after the dtrace_sync that ends their firings).
 *
 * Context: dtrace_jit_ecb and dtrace_jit_free in thread context under
 * dtrace_lock (enabling, closing); dtrace_jit_find in probe context.  The machine without a translator links
 * the weak fallbacks below: everything stays on the interpreter.
 *
 * Tests: self-tests jit_* (tests/kernel/jit_selftest.c); tests/d/jit; make
 *        difffuzz
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "trace/trace_impl.h"

__attribute__((weak)) size_t dif_jit_translate(const dif_difo_t *dp, uint8_t *buf, size_t cap)
{
	(void)dp;
	(void)buf;
	(void)cap;
	return 0;
}

__attribute__((weak)) bool dif_jit_plain(const dif_difo_t *dp)
{
	(void)dp;
	return false;
}

__attribute__((weak)) void *arch_jit_install(const uint8_t *code, size_t len)
{
	(void)code;
	(void)len;
	return NULL;
}

__attribute__((weak)) void arch_jit_reset(void)
{
}

struct dtrace_jit_stats dtrace_jit_st;
static uint64_t jit_live;                    /* translated DIFOs of ECBs not yet freed */

/*
 * The DIFOs translated lately: one clause matching thousands of probes
 * (fbt:::entry /arg0 > 5/) makes as many ECBs over the same DIFO, and
 * translates it once.  Emptied whenever an ECB is freed, so a DIFO freed
 * with its program and a new one at the same address never meet.
 */
#define JIT_CACHE 8
static struct {
	const dif_difo_t *jc_difo;
	dif_jit_fn jc_fn;                        /* NULL: the translator refused it */
} jit_cache[JIT_CACHE];
static unsigned jit_cache_next;

/* jit_make: the native code of dp, or NULL (left to the interpreter). */
static dif_jit_fn jit_make(const dif_difo_t *dp)
{
	static uint8_t buf[32 * 1024];           /* under dtrace_lock */

	for (unsigned i = 0; i < JIT_CACHE; i++)
		if (jit_cache[i].jc_difo == dp)
			return jit_cache[i].jc_fn;
	size_t len = dif_jit_translate(dp, buf, sizeof(buf));
	void *fn = len ? arch_jit_install(buf, len) : NULL;

	jit_cache[jit_cache_next % JIT_CACHE].jc_difo = dp;
	jit_cache[jit_cache_next % JIT_CACHE].jc_fn = (dif_jit_fn)fn;
	jit_cache_next++;
	if (fn == NULL) {
		dtrace_jit_st.djs_interpreted++;
		return NULL;
	}
	dtrace_jit_st.djs_translated++;
	dtrace_jit_st.djs_bytes += len;
	return (dif_jit_fn)fn;
}

static void jit_add(dtrace_ecb_t *e, const dif_difo_t *dp)
{
	dif_jit_fn fn;

	if (dp == NULL || e->dte_njit == DTRACE_ECB_NJIT || (fn = jit_make(dp)) == NULL)
		return;
	e->dte_jit[e->dte_njit].dj_difo = dp;
	e->dte_jit[e->dte_njit].dj_fn = fn;
	e->dte_jit[e->dte_njit].dj_plain = dif_jit_plain(dp);
	e->dte_njit++;
	jit_live++;
}

/*
 * dtrace_jit_free: e is about to be freed, and no CPU can be firing it
 * (after dtrace_sync, or never linked).  When no ECB has native code any
 * more, none of the area's code can run: it is reused from its start.
 * Thread context, dtrace_lock.
 */
void dtrace_jit_free(dtrace_ecb_t *e)
{
	memset(jit_cache, 0, sizeof(jit_cache));
	jit_live -= e->dte_njit;
	e->dte_njit = 0;
	if (jit_live == 0)
		arch_jit_reset();
}

void dtrace_jit_ecb(dtrace_ecb_t *e)
{
	const dt_clause *cl = e->dte_cl;
	const dt_prog *prog = e->dte_state->dts_prog;

	if (e->dte_state->dts_opts.dov_jit == 0)
		return;
	jit_add(e, cl->cl_pred);
	for (uint32_t k = 0; k < cl->cl_nacts; k++) {  /* then the actions' DIFOs, while room lasts */
		const dt_action *a = &cl->cl_acts[k];
		const dt_aggdesc *ag = a->ac_kind == DT_ACT_AGG ? &prog->dp_aggs[a->ac_aggs[0]] : NULL;
		for (uint32_t i = 0; i < a->ac_nargs; i++) {
			if (a->ac_args[i] == NULL || (ag != NULL && i < ag->ag_nkeys &&
			    (ag->ag_keys[i].kt_kind == DT_KEY_STACK || ag->ag_keys[i].kt_kind == DT_KEY_USTACK)))
				continue;                /* a stack key: no DIF runs (nor was validated) */
			jit_add(e, a->ac_args[i]);
		}
	}
}
