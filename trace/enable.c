/*
 * enable.c - consumer states and their enablings.
 *
 * dtrace_open makes a state; dtrace_enable checks a compiled program as if
 * it came from an untrusted process (every DIFO through dif_validate, every
 * index in range), allocates the state's buffers and variable space, and
 * creates an ECB for each (clause, matching probe), appending it to the
 * probe's chain and enabling the probe's instrumentation when it gets its
 * first ECB.  dtrace_go fires BEGIN; dtrace_stop fires END and then
 * deactivates the state for good: its ECBs come off their chains and the
 * probes left without one are disarmed, so a stopped state costs nothing
 * while its consumer prints and closes (exit() deactivates it earlier, in
 * probe context: from DRAINING on no ECB of it fires but END's, checked at
 * the head of every firing path in probe.c); dtrace_close frees it all.  A deadman cyclic aborts a state whose consumer stopped
 * asking for status (DTrace's deadman_user, 30 s, then deadman_timeout,
 * 10 s) or whose cyclic could not run for deadman_timeout (systemic
 * unresponsiveness).
 *
 * Probe context on other CPUs reads the chains and the states at any time,
 * without a lock.  Two rules make that safe:
 *   - Publishing: an ECB, and the state it points to, is complete before one
 *     release store links it at the end of a chain, so a firing sees the
 *     chain without it or with all of it.  Unlinking is one store of the
 *     ECB's successor into its predecessor; the unlinked ECB keeps its own
 *     successor, so a firing standing on it walks on correctly.
 *   - Retiring: nothing probe context may still hold (an unlinked ECB, a
 *     state's buffers, aggregations, dynamic variables, speculations, the
 *     state itself) is freed before dtrace_sync() returns, and a state's
 *     phase change that a firing must not straddle (active to cooldown,
 *     before END fires) is followed by one.  dtrace_sync() is a cross-call
 *     that every CPU answers outside probe context; probe context runs with
 *     interrupts off, so a CPU that answers has left any firing that began
 *     before the call, and any firing it starts afterwards sees the stores
 *     made before the call.
 * The text the providers patched is synchronised (text_patch_sync) after
 * each batch of enables or disables, so that when dtrace_enable returns every
 * CPU runs the planted traps.
 *
 * Context: thread context, under dtrace_lock (a mutex), except the deadman
 * (timer interrupt).
 *
 * Tests: self-tests trace_close_frees_everything, trace_deadman_*,
 *        trace_stop_disarms_its_probes, trace_nothing_fires_after_exit,
 *        stress_close_while_firing; tests/d/begin-end, tests/d/errs
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"
#include "kernel/xcall.h"
#include "trace/dof.h"
#include "trace/trace_impl.h"

static const char *const errmsgs[] = {
#define DTRACE_ERR(NAME, n, msg) [n] = msg,
#include "trace/dtrace_errors.def"
#undef DTRACE_ERR
};

const char *dtrace_errmsg(int err)
{
	return err < 0 && -err < (int)ARRAY_SIZE(errmsgs) ? errmsgs[-err] : "unknown error";
}

void dtrace_opts_default(dtrace_optvals_t *o)
{
	*o = (dtrace_optvals_t){
		.dov_bufsize = 4UL << 20,
		.dov_bufpolicy = DTRACE_BUFPOLICY_SWITCH,
		.dov_aggsize = 4UL << 20,
		.dov_dynvarsize = 1UL << 20,
		.dov_strsize = 256,
		.dov_nspec = 1,
		.dov_specsize = 32UL << 10,
		.dov_stackframes = 20,
		.dov_ustackframes = DTRACE_USTACK_FRAMES,
		.dov_deadman_ns = 10 * NSEC_PER_SEC,
		.dov_cleanrate_ns = DTRACE_CLEANRATE_DEFAULT_NS,
		.dov_deadman_user_ns = 30 * NSEC_PER_SEC,
		.dov_destructive = false,
		.dov_jit = 1,
		.dov_cpu = -1,
	};
}

int dtrace_ncpus(void)
{
	return ncpus;
}

int dtrace_open(const dtrace_optvals_t *opts, dtrace_state_t **sp)
{
	dtrace_state_t *s = kzalloc(sizeof(*s));

	if (s == NULL)
		return DTRACE_ENOMEM;
	s->dts_opts = *opts;
	if (s->dts_opts.dov_strsize < 2 || s->dts_opts.dov_strsize > 8192 ||
	    s->dts_opts.dov_stackframes == 0 || s->dts_opts.dov_stackframes > 100 ||
	    s->dts_opts.dov_nspec > 256 ||        /* buffer sizes: any (bufsize.c) */
	    s->dts_opts.dov_cpu >= ncpus) {
		kfree(s);
		return DTRACE_EINVAL;
	}
	s->dts_env = dtrace_dif_env;
	s->dts_env.de_ctx = s;
	*sp = s;
	return 0;
}

/* ---- checking a program ---- */

struct vctx {
	char *buf;
	size_t len;
	uint32_t clause, action;
	unsigned problems;
};

static void validate_report(void *arg, uint32_t pc, const char *why)
{
	struct vctx *v = arg;
	size_t used = strlen(v->buf);

	if (v->problems++ == 0 && used < v->len)
		ksnprintf(v->buf + used, v->len - used, "clause %u, %s %u: DIF offset %u: %s",
		          v->clause + 1, v->action ? "action" : "predicate", v->action,
		          pc == DIF_PC_NONE ? 0 : pc * 4, why);
}

static bool difo_ok(const dif_difo_t *dp, unsigned flags, struct vctx *v)
{
	return dp != NULL && dif_validate(dp, flags, validate_report, v) == 0;
}

static bool action_ok(const dt_prog *prog, const dt_action *a, unsigned flags, struct vctx *v)
{
	if (a->ac_kind < DT_ACT_EXPR || a->ac_kind > DT_ACT_UMOD)
		return false;
	if (a->ac_fmt >= (int32_t)prog->dp_nformats || a->ac_nargs > DT_MAXARGS)
		return false;
	for (uint32_t i = 0; i < a->ac_naggs; i++)
		if (a->ac_aggs[i] >= prog->dp_naggs)
			return false;
	if (a->ac_kind == DT_ACT_AGG) {
		if (a->ac_naggs != 1)
			return false;
		const dt_aggdesc *ag = &prog->dp_aggs[a->ac_aggs[0]];
		uint32_t nvals = dtrace_agg_nvals(ag);
		if (nvals == 0) {
			ksnprintf(v->buf, v->len, "clause %u, action %u: llquantize() parameters "
			          "out of range", v->clause + 1, v->action);
			return false;
		}
		if (a->ac_nargs < ag->ag_nkeys || nvals > 100000)
			return false;
	}
	if ((a->ac_kind == DT_ACT_SPECULATE || a->ac_kind == DT_ACT_COMMIT || a->ac_kind == DT_ACT_DISCARD) &&
	    a->ac_nargs < 1)
		return false;
	if ((a->ac_kind == DT_ACT_EXIT || a->ac_kind == DT_ACT_TRACE || a->ac_kind == DT_ACT_TRACEMEM ||
	     a->ac_kind == DT_ACT_CHILL || a->ac_kind == DT_ACT_SYM || a->ac_kind == DT_ACT_MOD ||
	     a->ac_kind == DT_ACT_USYM || a->ac_kind == DT_ACT_UADDR || a->ac_kind == DT_ACT_UMOD) &&
	    a->ac_nargs < 1)
		return false;
	if ((a->ac_kind == DT_ACT_STACK && a->ac_arg > 100) ||
	    (a->ac_kind == DT_ACT_TRACEMEM && (a->ac_arg > 4096 || a->ac_nargs > 2)))
		return false;
	for (uint32_t i = 0; i < a->ac_nargs; i++) {
		if (a->ac_args[i] == NULL && a->ac_kind == DT_ACT_AGG &&
		    i < prog->dp_aggs[a->ac_aggs[0]].ag_nkeys &&
		    prog->dp_aggs[a->ac_aggs[0]].ag_keys[i].kt_kind != DT_KEY_VALUE &&
		    prog->dp_aggs[a->ac_aggs[0]].ag_keys[i].kt_kind <= DT_KEY_USTACK)
			continue;                   /* a stack key: the framework records it */
		if (!difo_ok(a->ac_args[i], flags, v))
			return false;
	}
	return true;
}

static int prog_check(dtrace_state_t *s, const dt_prog *prog, char *errbuf, size_t errlen)
{
	unsigned flags = (s->dts_opts.dov_destructive ? DIF_VF_DESTRUCTIVE : 0) |
	                 DIF_VF_USER;                /* user memory: the current process's */
	struct vctx v = { errbuf, errlen, 0, 0, 0 };

	if (prog->dp_destructive && !s->dts_opts.dov_destructive)
		return DTRACE_EPERM;
	for (uint32_t c = 0; c < prog->dp_nclauses; c++) {
		const dt_clause *cl = &prog->dp_clauses[c];
		v.clause = c;
		v.action = 0;
		if (cl->cl_pred != NULL && !difo_ok(cl->cl_pred, flags, &v))
			return DTRACE_EDIF;
		for (uint32_t i = 0; i < cl->cl_nacts; i++) {
			v.action = i + 1;
			/* The program's own dp_destructive may lie: judge each action. */
			if (dtrace_action_destructive(cl->cl_acts[i].ac_kind) &&
			    !s->dts_opts.dov_destructive)
				return DTRACE_EPERM;
			if (!action_ok(prog, &cl->cl_acts[i], flags, &v))
				return v.problems ? DTRACE_EDIF : DTRACE_EINVAL;
		}
	}
	return 0;
}

/* ---- buffers ---- */

/* aggshapes_make: each aggregation's key length and value words, once, not per firing. */
static int aggshapes_make(dtrace_state_t *s)
{
	const dt_prog *p = s->dts_prog;

	s->dts_aggshape = kmalloc((p->dp_naggs + 1) * sizeof(*s->dts_aggshape));
	if (s->dts_aggshape == NULL)
		return DTRACE_ENOMEM;
	for (uint32_t i = 0; i < p->dp_naggs; i++)
	for (uint32_t i = 0; i < p->dp_naggs; i++) {
		struct dtrace_aggshape *sh = &s->dts_aggshape[i];
		memset(sh, 0, sizeof(*sh));
		sh->das_desc = &p->dp_aggs[i];
		sh->das_keylen = dtrace_agg_keylen(&p->dp_aggs[i], s->dts_opts.dov_strsize,
		                                   s->dts_opts.dov_stackframes);
		sh->das_nvals = dtrace_agg_nvals(&p->dp_aggs[i]);
		dtrace_agg_segments(sh, s->dts_opts.dov_strsize, s->dts_opts.dov_stackframes);
	}
	return 0;
}

static uint32_t clause_size(const dtrace_state_t *s, const dt_clause *cl);

/* prog_needed: the largest record any clause of the program writes. */
static uint32_t prog_needed(const dtrace_state_t *s)
{
	uint32_t n = 0;

	for (uint32_t c = 0; c < s->dts_prog->dp_nclauses; c++)
		n = MAX(n, clause_size(s, &s->dts_prog->dp_clauses[c]));
	return n;
}

static int state_alloc(dtrace_state_t *s)
{
	const dtrace_optvals_t *o = &s->dts_opts;
	int rc0 = dtrace_buffer_sizes(s, prog_needed(s));   /* may change the sizes in s->dts_opts */

	if (rc0 != 0)
		return rc0;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int rc = dtrace_buffer_alloc(&s->dts_buf[cpu], o->dov_bufsize, o->dov_bufpolicy);
		if (rc == 0)
			rc = dtrace_aggbuf_alloc(&s->dts_agg[cpu], o->dov_aggsize);
		s->dts_scratch[cpu] = kmalloc(TRACE_SCRATCH_SIZE);
		if (rc != 0 || s->dts_scratch[cpu] == NULL)
			return DTRACE_ENOMEM;
	}
	if (dtrace_spec_alloc(s) != 0 || aggshapes_make(s) != 0)
		return DTRACE_ENOMEM;
	return dtrace_dynvar_init(s);
}

static void state_free(dtrace_state_t *s)
{
	dtrace_spec_free(s);                        /* first: its cleaners write the buffers */
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		dtrace_buffer_free(&s->dts_buf[cpu]);
		dtrace_aggbuf_free(&s->dts_agg[cpu]);
		kfree(s->dts_scratch[cpu]);
	}
	dtrace_dynvar_fini(s);
	dtrace_agg_kept_free(s);
	kfree(s->dts_aggshape);
	s->dts_aggshape = NULL;
}

/* ---- ECBs ---- */

/*
 * clause_size: the record a clause writes.  A clause records (at least its
 * header) if it has no actions at all (DTrace's default action: the probe
 * line) or any data-recording action; a clause of only assignments and
 * aggregations records nothing.
 */
static uint32_t clause_size(const dtrace_state_t *s, const dt_clause *cl)
{
	uint32_t n = 0;
	bool records = cl->cl_nacts == 0;

	for (uint32_t i = 0; i < cl->cl_nacts; i++) {
		const dt_action *a = &cl->cl_acts[i];
		records |= a->ac_kind != DT_ACT_EXPR && a->ac_kind != DT_ACT_AGG &&
		           a->ac_kind != DT_ACT_COMMIT && a->ac_kind != DT_ACT_DISCARD;
		n += dtrace_action_size(a, s->dts_opts.dov_strsize, s->dts_opts.dov_stackframes);
	}
	return records ? n + (uint32_t)sizeof(dtrace_rechdr_t) : 0;
}

/* clause_exits: does the clause call exit()?  (Its record may use the exit reserve.) */
static bool clause_exits(const dt_clause *cl)
{
	for (uint32_t i = 0; i < cl->cl_nacts; i++)
		if (cl->cl_acts[i].ac_kind == DT_ACT_EXIT)
			return true;
	return false;
}

static int ecb_create(dtrace_state_t *s, dtrace_probe_t *p, uint32_t clause)
{
	dtrace_ecb_t *e = kzalloc(sizeof(*e));

	if (e == NULL)
		return DTRACE_ENOMEM;
	e->dte_probe = p;
	e->dte_state = s;
	e->dte_clause = clause;
	e->dte_cl = &s->dts_prog->dp_clauses[clause];
	e->dte_size = clause_size(s, e->dte_cl);
	e->dte_class = clause_exits(e->dte_cl) ? DTRACE_REC_EXIT :
	               p->dtpr_id == dtrace_probeid_end ? DTRACE_REC_END : DTRACE_REC_ORDINARY;
	e->dte_lone_agg = e->dte_size == 0 && !e->dte_cl->cl_speculative && e->dte_cl->cl_nacts == 1 &&
	                  e->dte_cl->cl_acts[0].ac_kind == DT_ACT_AGG;
	e->dte_bag = dtrace_bag_clause_uses(e->dte_cl);
	dtrace_jit_ecb(e);
	dtrace_lean_ecb(e);
	e->dte_epid = ++s->dts_necbs;
	e->dte_snext = s->dts_ecbs;
	s->dts_ecbs = e;
	return 0;
}

/*
 * clause_match: an ECB of clause c for each probe it matches, counted in
 * matched[c]; with count_only, the count alone (the consumer's "matched"
 * notice when the buffers cannot be had: DTrace matches before it
 * allocates, and finds that at go).
 */
static int clause_match(dtrace_state_t *s, uint32_t c, uint32_t *matched, bool count_only)
{
	const dt_clause *cl = &s->dts_prog->dp_clauses[c];

	for (uint32_t i = 0; i < cl->cl_nprobes; i++) {
		dtrace_probedesc_t d = dtrace_desc_of(&cl->cl_probes[i]);
		dtrace_provide_all(&d);
		for (uint32_t id = 0; id < dtrace_nprobes; id++) {
			if (!dtrace_probe_matches(dtrace_probes[id], &d))
				continue;
			int rc = count_only ? 0 : ecb_create(s, dtrace_probes[id], c);
			if (rc != 0)
				return rc;
			if (matched != NULL)
				matched[c]++;
		}
	}
	return 0;
}

/* ecb_link: publish e at the end of its probe's chain; enable the probe if it is the first. */
static int ecb_link(dtrace_ecb_t *e)
{
	dtrace_probe_t *p = e->dte_probe;
	bool first = p->dtpr_ecb == NULL;
	dtrace_ecb_t **pp = &p->dtpr_ecb;

	while (*pp != NULL)
		pp = &(*pp)->dte_next;
	__atomic_store_n(pp, e, __ATOMIC_RELEASE);   /* e and its state are complete */
	return first ? dtrace_probe_enable_hw(p) : 0;
}

/* ecb_unlink: take e off its probe's chain (e keeps its dte_next); disable an emptied probe. */
static void ecb_unlink(dtrace_ecb_t *e)
{
	dtrace_probe_t *p = e->dte_probe;

	for (dtrace_ecb_t **pp = &p->dtpr_ecb; *pp != NULL; pp = &(*pp)->dte_next) {
		if (*pp == e) {
			__atomic_store_n(pp, e->dte_next, __ATOMIC_RELEASE);
			if (p->dtpr_ecb == NULL)
				dtrace_probe_disable_hw(p);
			return;
		}
	}
}

/*
 * ecbs_unlink: take the state's ECBs off their probes' chains (disarming
 * every probe left without one), synchronise the text, and wait until no
 * CPU can be firing one.  Once: dtrace_stop does it as soon as END has
 * fired, so that a stopped state's probes cost nothing while its consumer
 * prints and closes; dtrace_close (or a failed enabling) finds it done.
 * The ECBs themselves stay until ecbs_destroy (their EPIDs still describe
 * the records left in the buffers).
 */
static void ecbs_unlink(dtrace_state_t *s)
{
	if (!s->dts_linked)
		return;
	for (dtrace_ecb_t *e = s->dts_ecbs; e != NULL; e = e->dte_snext)
		ecb_unlink(e);
	text_patch_sync();
	prov_isa_optimize();                        /* fbt's jump sites back to their bytes */
	dtrace_sync();
	s->dts_linked = false;
}

/* ecbs_destroy: unlink the state's ECBs (if still linked) and free them; its buffers may go next. */
static void ecbs_destroy(dtrace_state_t *s)
{
	dtrace_ecb_t *next;

	ecbs_unlink(s);
	for (dtrace_ecb_t *e = s->dts_ecbs; e != NULL; e = next) {
		next = e->dte_snext;
		dtrace_jit_free(e);
		kfree(e);
	}
	s->dts_ecbs = NULL;
	kfree(s->dts_ecbtab);
	s->dts_ecbtab = NULL;
	s->dts_necbs = 0;
}

static int ecbs_index_and_link(dtrace_state_t *s)
{
	uint32_t end_bytes = 0, needed = 0;

	s->dts_ecbtab = kzalloc(MAX(s->dts_necbs, 1) * sizeof(dtrace_ecb_t *));
	if (s->dts_ecbtab == NULL)
		return DTRACE_ENOMEM;
	for (dtrace_ecb_t *e = s->dts_ecbs; e != NULL; e = e->dte_snext) {
		s->dts_ecbtab[e->dte_epid - 1] = e;
		needed = MAX(needed, e->dte_size);
		if (e->dte_probe->dtpr_id == dtrace_probeid_end)
			end_bytes += e->dte_size;
		if (e->dte_class == DTRACE_REC_EXIT)
			s->dts_exit_reserve = MAX(s->dts_exit_reserve, e->dte_size);
	}
	s->dts_end_reserve = end_bytes;
	int rc = dtrace_buffer_check_end(s, needed, end_bytes);
	if (rc != 0)
		return rc;
	dtrace_buffer_limits(s);
	text_patch_sync();                          /* the JIT's code (jit.c), before an ECB can run it */
	s->dts_linked = true;                       /* from the first link on, ecbs_unlink undoes it */
	/* Link in EPID order so clauses fire in program order. */
	for (uint32_t i = 0; i < s->dts_necbs && rc == 0; i++)
		rc = ecb_link(s->dts_ecbtab[i]);
	text_patch_sync();                          /* every CPU runs the traps from now on */
	prov_isa_optimize();                        /* fbt entry traps become jumps where safe */
	return rc != 0 ? DTRACE_EBUSY : 0;
}

static bool difo_reads(const dif_difo_t *dp, uint32_t lo, uint32_t hi, bool arrays)
{
	for (uint32_t i = 0; dp != NULL && i < dp->dd_ninsns; i++) {
		unsigned op = DIF_INSTR_OP(dp->dd_insns[i]), var = DIF_INSTR_INDEX(dp->dd_insns[i]);
		if ((op == DIF_OP_LDGS && var >= lo && var <= hi) || (arrays && op == DIF_OP_LDGA))
			return true;
	}
	return false;
}

bool dtrace_clause_reads(const dt_clause *cl, uint32_t lo, uint32_t hi, bool arrays)
{
	if (difo_reads(cl->cl_pred, lo, hi, arrays))
		return true;
	for (uint32_t a = 0; a < cl->cl_nacts; a++)
		for (uint32_t k = 0; k < cl->cl_acts[a].ac_nargs; k++)
			if (difo_reads(cl->cl_acts[a].ac_args[k], lo, hi, arrays))
				return true;
	return false;
}

/* prog_reads: does any predicate or action of prog read built-in variable var? */
static bool prog_reads(const dt_prog *prog, uint32_t var)
{
	for (uint32_t c = 0; c < prog->dp_nclauses; c++)
		if (dtrace_clause_reads(&prog->dp_clauses[c], var, var, false))
			return true;
	return false;
}

int dtrace_enable(dtrace_state_t *s, const dt_prog *prog, uint32_t *matched, char *errbuf,
                  size_t errlen)
{
	int rc;

	if (errlen > 0)
		errbuf[0] = 0;
	mutex_lock(&dtrace_lock);
	rc = s->dts_prog != NULL ? DTRACE_ESTATE : prog_check(s, prog, errbuf, errlen);
	if (rc == 0) {
		s->dts_prog = prog;
		if (matched != NULL)
			memset(matched, 0, prog->dp_nclauses * sizeof(*matched));
		rc = state_alloc(s);
		for (uint32_t c = 0; rc != 0 && matched != NULL && c < prog->dp_nclauses; c++)
			clause_match(s, c, matched, true);
	}
	for (uint32_t c = 0; rc == 0 && c < prog->dp_nclauses; c++)
		rc = clause_match(s, c, matched, false);
	if (rc == 0)
		rc = ecbs_index_and_link(s);
	if (rc != 0 && s->dts_prog == prog) {
		ecbs_destroy(s);
		state_free(s);
		s->dts_prog = NULL;
	}
	if (rc == 0 && prog_reads(prog, DIF_VAR_VTIMESTAMP)) {
		s->dts_vtime = true;                /* firings keep vtime from now on */
		__atomic_add_fetch(&dtrace_vtime_active, 1, __ATOMIC_RELAXED);
	}
	if (rc == 0)
		dtrace_bag_state_enable(s);         /* the baggage hand-off sites, if it uses bag-> */
	mutex_unlock(&dtrace_lock);
	return rc;
}

/*
 * dtrace_enable_dof: the enabling as DOF, from a consumer the kernel does
 * not trust: dof_load builds the kernel's own program in an arena of the
 * kernel's (the state owns it from here; dtrace_close frees it), then
 * dtrace_enable checks and enables it as for any program.  A load fault is
 * DTRACE_EINVAL (or EDIF) with dof_load's message in errbuf.
 */
int dtrace_enable_dof(dtrace_state_t *s, const void *dof, size_t len, uint32_t *matched,
                      char *errbuf, size_t errlen)
{
	size_t size = dof_arena_size(len);
	dt_prog *prog = NULL;
	void *arena = NULL;
	int rc = DTRACE_ENOMEM;

	if (errlen > 0)
		errbuf[0] = 0;
	if (s->dts_prog != NULL || s->dts_dof_arena != NULL)
		return DTRACE_ESTATE;
	if (len > DTRACE_DOF_MAXSIZE) {
		ksnprintf(errbuf, errlen, "DOF: %zu bytes is more than the %u allowed", len,
		          DTRACE_DOF_MAXSIZE);
		return DTRACE_EINVAL;
	}
	for (int tries = 0; tries < 2 && rc == DTRACE_ENOMEM; tries++, size *= 2) {
		kfree(arena);
		if ((arena = kmalloc(size)) == NULL)
			return DTRACE_ENOMEM;
		rc = dof_load(dof, len, arena, size, &prog, errbuf, errlen);
	}
	if (rc == 0)
		rc = dtrace_enable(s, prog, matched, errbuf, errlen);
	if (rc != 0) {
		kfree(arena);
		return rc;
	}
	s->dts_dof_arena = arena;
	return 0;
}

/* dtrace_sync() is in sync.c. */

/* ---- running ---- */

/*
 * deadman_fn: DTrace's deadman, on a cyclic.  The state is alive while this
 * cyclic keeps running (the system is responsive) and the consumer has asked
 * for status or data within deadman_user; a consumer busy printing what it
 * read still asks (dtrace_status_get), so it lives.  If the state has not
 * been found alive for deadman_timeout, tracing is aborted: either the
 * consumer is gone, or firings kept this cyclic from running.
 */
static void deadman_fn(void *arg)
{
	dtrace_state_t *s = arg;
	int a = s->dts_activity;
	uint64_t now = ktime_ns();

	if (a != DTRACE_ACT_WARMUP && a != DTRACE_ACT_ACTIVE && a != DTRACE_ACT_DRAINING)
		return;
	if (now - s->dts_alive > s->dts_opts.dov_deadman_ns)
		s->dts_activity = DTRACE_ACT_KILLED;
	else if (now - s->dts_laststatus < s->dts_opts.dov_deadman_user_ns)
		s->dts_alive = now;
}

void dtrace_opts_get(dtrace_state_t *s, dtrace_optvals_t *out)
{
	*out = s->dts_opts;
}

int dtrace_go(dtrace_state_t *s)
{
	mutex_lock(&dtrace_lock);
	if (s->dts_prog == NULL || s->dts_activity != DTRACE_ACT_INACTIVE) {
		mutex_unlock(&dtrace_lock);
		return DTRACE_ESTATE;
	}
	s->dts_laststatus = s->dts_alive = ktime_ns();
	if (s->dts_opts.dov_deadman_ns != 0)            /* looks at least twice per timeout */
		cyclic_start(&s->dts_deadman, MIN(NSEC_PER_SEC, s->dts_opts.dov_deadman_ns / 2), 0,
		             deadman_fn, s);
	s->dts_activity = DTRACE_ACT_WARMUP;
	dtrace_probe(dtrace_probeid_begin, 0, 0, 0, 0, 0, 0);
	if (s->dts_activity == DTRACE_ACT_WARMUP)
		s->dts_activity = DTRACE_ACT_ACTIVE;
	mutex_unlock(&dtrace_lock);
	return 0;
}

int dtrace_stop(dtrace_state_t *s)
{
	mutex_lock(&dtrace_lock);
	int a = s->dts_activity;
	if (a == DTRACE_ACT_WARMUP || a == DTRACE_ACT_ACTIVE || a == DTRACE_ACT_DRAINING) {
		s->dts_activity = DTRACE_ACT_COOLDOWN;
		dtrace_sync();                          /* firings that saw it active are over: */
		dtrace_probe(dtrace_probeid_end, 0, 0, 0, 0, 0, 0);   /* END's record is the last */
	}
	if (s->dts_activity != DTRACE_ACT_KILLED)
		s->dts_activity = DTRACE_ACT_STOPPED;
	cyclic_stop(&s->dts_deadman);
	ecbs_unlink(s);                             /* stopped: its probes disarmed, now */
	mutex_unlock(&dtrace_lock);
	return 0;
}

void dtrace_close(dtrace_state_t *s)
{
	if (s == NULL)
		return;
	dtrace_stop(s);
	mutex_lock(&dtrace_lock);
	if (s->dts_prog != NULL) {
		ecbs_destroy(s);                    /* unlinked already if it ever ran */
		state_free(s);
	}
	if (s->dts_vtime)
		__atomic_sub_fetch(&dtrace_vtime_active, 1, __ATOMIC_RELAXED);
	dtrace_bag_state_close(s);
	mutex_unlock(&dtrace_lock);
	kfree(s->dts_dof_arena);                    /* the program dtrace_enable_dof loaded */
	kfree(s);
}

void dtrace_status_get(dtrace_state_t *s, dtrace_status_t *st)
{
	memset(st, 0, sizeof(*st));
	s->dts_laststatus = ktime_ns();             /* the consumer is alive (deadman_fn) */
	st->dst_exited = s->dts_exited || s->dts_activity == DTRACE_ACT_DRAINING;
	st->dst_exitstatus = s->dts_exitstatus;
	st->dst_killed = s->dts_activity == DTRACE_ACT_KILLED;
	st->dst_errors = s->dts_errors;
	st->dst_dblerrors = s->dts_dblerrors;
	dtrace_dynvar_drops(s, &st->dst_dyndrops, &st->dst_dyndirty, &st->dst_dynrinse);
	st->dst_specdrops = s->dts_specdrops;
	st->dst_specunavail = s->dts_specunavail;
	st->dst_specbusy = s->dts_specbusy;
	for (int cpu = 0; cpu < ncpus && cpu < MAX_CPUS; cpu++) {
		st->dst_drops[cpu] = s->dts_buf[cpu].dtb_drops;
		st->dst_aggdrops[cpu] = s->dts_agg[cpu].dta_drops;
		st->dst_filled |= s->dts_buf[cpu].dtb_full;
		st->dst_reentries += dtrace_firing_cpu(cpu)->df_reentries;
	}
}

int dtrace_epid_info(dtrace_state_t *s, dtrace_epid_t epid, dtrace_epinfo_t *out)
{
	if (epid == 0 || epid > s->dts_necbs || s->dts_ecbtab == NULL)
		return DTRACE_EINVAL;
	dtrace_ecb_t *e = s->dts_ecbtab[epid - 1];
	out->dei_probe = e->dte_probe->dtpr_id;
	out->dei_clause = e->dte_clause;
	out->dei_size = e->dte_size;
	dtrace_probe_desc(e->dte_probe, &out->dei_desc);
	return 0;
}
