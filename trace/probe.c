/*
 * probe.c - what happens when a probe fires: the general path.
 *
 * dtrace_probe() turns interrupts off (dtrace_probe_frame(), for providers
 * that fire from a trap or an interrupt, finds them off already and also
 * records where stack() starts; its fast loop is probe_fast.c), makes
 * every firing's first checks (probe_enter, trace/probe_impl.h: the
 * consumer's own work is not traced, a re-entry on the same CPU is
 * counted), and walks the probe's ECB chain.  For each ECB whose consumer
 * is in the right phase (BEGIN only while warming up, END only while cooling
 * down, everything else while active) it runs the predicate, reserves the
 * clause's whole record in the CPU's buffer, and runs the actions in order,
 * each writing its data at its place in the record.  A fault stops the
 * clause: its record is marked void, an error record is written, and the
 * ERROR probe fires for that consumer.  An ECB that enabling made lean
 * (lean.c) is handed to probe_lean.c instead.  Nothing here sleeps,
 * allocates or takes a lock.
 *
 * The fast loop (probe_fast.c) hands over here, at dtrace_fire_rest, from
 * the first ECB it cannot finish, reporting a fault it met as this path
 * would have.
 *
 * Order: record sizes, actions, errors, the firing loop, the entry points.
 *
 * Tests: self-tests trace_* (tests/kernel/trace_selftest.c, trace_fast_selftest.c),
 *        stress_*; tests/d (every runtime topic); tests/e2e/test_firing_trace.py
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/pid_isa.h"
#include "kernel/proc.h"
#include "trace/probe_impl.h"

dtrace_firing_t dtrace_firing[MAX_CPUS];

dtrace_firing_t *dtrace_firing_cpu(int cpu)
{
	return &dtrace_firing[cpu];
}

/* ---- record layout (shared with the consumer) ---- */

uint32_t dtrace_arg_size(const dif_difo_t *dp, uint32_t strsize)
{
	if (dp->dd_rtype.dt_kind == DIF_TYPE_STRING)
		return (uint32_t)ALIGN_UP(strsize, 8);
	if (dp->dd_rtype.dt_kind == DIF_TYPE_BLOB)
		return (uint32_t)ALIGN_UP(dp->dd_rtype.dt_size, 8);
	return 8;
}

static uint32_t args_size(const dt_action *a, uint32_t strsize)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < a->ac_nargs; i++)
		n += dtrace_arg_size(a->ac_args[i], strsize);
	return n;
}

uint32_t dtrace_action_size(const dt_action *a, uint32_t strsize, uint32_t stackframes)
{
	switch (a->ac_kind) {
	case DT_ACT_TRACE: case DT_ACT_PRINTF: case DT_ACT_SYSTEM: case DT_ACT_FREOPEN:
	case DT_ACT_PRINT:
		return args_size(a, strsize);
	case DT_ACT_FTRUNCATE:
		return 8;                            /* nothing, but a record for the consumer */
	case DT_ACT_USTACK:                      /* the program's image, then the frames */
		return 8 * (1 + (uint32_t)MIN(a->ac_arg ? a->ac_arg : DTRACE_USTACK_FRAMES, 100));
	case DT_ACT_PRINTA: case DT_ACT_EXIT: case DT_ACT_SYM: case DT_ACT_MOD:
	case DT_ACT_CLEAR: case DT_ACT_DENORMALIZE: case DT_ACT_NORMALIZE: case DT_ACT_TRUNC:
		return 8;                            /* the value argument, or 0 */
	case DT_ACT_STACK:
		return 8 * (uint32_t)(a->ac_arg ? a->ac_arg : stackframes);
	case DT_ACT_USYM: case DT_ACT_UADDR: case DT_ACT_UMOD:
		return 16;                           /* the pc, then the process's image */
	case DT_ACT_TRACEMEM:                    /* the bytes, then dsize if given */
		return (uint32_t)ALIGN_UP(a->ac_arg, 8) + (a->ac_nargs > 1 ? 8 : 0);
	default:
		return 0;
	}
}

/* ---- actions ---- */


struct act_ctx {
	dtrace_firing_t *ac_f;
	dtrace_ecb_t *ac_ecb;
	dtrace_state_t *ac_s;
	uint8_t *ac_data;                        /* where this action's data goes */
	bool ac_dif_ready;                       /* df_dif set up for this clause */
};

/*
 * eval: run one DIFO, natively if it was translated.  The DIF machine is
 * set up at the clause's first DIFO that needs it (one that is not plain
 * arithmetic on the arguments, natively or not); faults are the caller's.
 */
static int eval(struct act_ctx *c, const dif_difo_t *dp, uint64_t *v)
{
	const struct dtrace_jit *j = c->ac_ecb->dte_njit ? dtrace_jit_entry(c->ac_ecb, dp) : NULL;

	if (j != NULL && (j->dj_plain || c->ac_dif_ready))
		return jit_run(c->ac_f, j->dj_fn, v);
	if (!c->ac_dif_ready) {
		dif_prepare(c->ac_f, c->ac_s);
		c->ac_dif_ready = true;
	}
	if (j != NULL)
		return jit_run(c->ac_f, j->dj_fn, v);
	return dif_emulate(dp, &c->ac_f->df_dif, v);
}

/*
 * record_value: evaluate dp and store it (8 bytes or a string) at *out;
 * advances *out.  key: an aggregation key's element (a string zeroed only
 * to its NUL's word, dtrace_strcpy_dif).
 */
static int record_value(struct act_ctx *c, const dif_difo_t *dp, uint8_t **out, bool key)
{
	uint64_t v;
	uint32_t strsize = c->ac_s->dts_opts.dov_strsize;
	int rc = eval(c, dp, &v);

	if (rc != 0)
		return rc;
	if (dp->dd_rtype.dt_kind == DIF_TYPE_STRING) {
		const dif_state_t *st = c->ac_dif_ready ? &c->ac_f->df_dif : NULL;
		if (v == 0 || dtrace_strcpy_dif((char *)*out, v, strsize, st, dp, key) == SIZE_MAX) {
			c->ac_f->df_dif.ds_fault = (dif_fault_t){ DIF_FAULT_BADADDR, DIF_PC_NONE, v };
			return DIF_FAULT_BADADDR;
		}
	} else if (dp->dd_rtype.dt_kind == DIF_TYPE_BLOB) {
		if (arch_safe_read(*out, (const void *)v, dp->dd_rtype.dt_size) != 0) {
			c->ac_f->df_dif.ds_fault = (dif_fault_t){ DIF_FAULT_BADADDR, DIF_PC_NONE, v };
			return DIF_FAULT_BADADDR;
		}
	} else {
		memcpy(*out, &v, 8);
	}
	*out += dtrace_arg_size(dp, strsize);
	return 0;
}

static int act_values(struct act_ctx *c, const dt_action *a)
{
	uint8_t *out = c->ac_data;

	for (uint32_t i = 0; i < a->ac_nargs; i++) {
		int rc = record_value(c, a->ac_args[i], &out, false);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static int act_exit(struct act_ctx *c, const dt_action *a)
{
	uint64_t v;
	int rc = eval(c, a->ac_args[0], &v);
	dtrace_state_t *s = c->ac_s;

	if (rc != 0)
		return rc;
	memcpy(c->ac_data, &v, 8);
	s->dts_exitstatus = (int)v;
	s->dts_exited = true;
	if (s->dts_activity == DTRACE_ACT_WARMUP || s->dts_activity == DTRACE_ACT_ACTIVE)
		s->dts_activity = DTRACE_ACT_DRAINING;
	return 0;
}

/*
 * stack_record: n frames for stack() into pcs, leaving out the probe's
 * aframes first PCs (fbt's: the probed function itself, so the stack starts
 * at the call site, as in DTrace); zero-filled.  stack() and a stack() key
 * both come here, so they agree frame for frame.  ERROR's are those of the
 * probe whose clause faulted (df_faulted, which only ERROR's firing sets).
 */
static void stack_record(dtrace_firing_t *f, uint64_t *pcs, uint32_t n)
{
	const dtrace_probe_t *p = f->df_inerror ? f->df_faulted : f->df_probe;
	uint32_t skip = (uint32_t)MAX(p->dtpr_aframes, 0);
	uint64_t all[128];
	int got = dtrace_stack_walk(f, all, (int)MIN(n + skip, (uint32_t)ARRAY_SIZE(all)));
	uint32_t k = 0;

	for (uint32_t i = skip; i < (uint32_t)got && k < n; i++)
		pcs[k++] = all[i];
	while (k < n)
		pcs[k++] = 0;
}

/*
 * dtrace_ustack_record: ustack()'s record, n words: the current process's
 * image (a boot-archive file, which lives for ever, so the consumer can
 * name the frames after the process is gone; 0 outside a process), then
 * n - 1 user PCs, zero-filled.  Probe context.
 */
/* dtrace_uimage_record: the current process's image (or 0) into 8 bytes at out.  Probe context. */
static void dtrace_uimage_record(uint8_t *out)
{
	struct proc *p = curthread()->t_proc;
	uint64_t image = p != NULL ? (uint64_t)p->p_image : 0;

	memcpy(out, &image, 8);
}

void dtrace_ustack_record(uint64_t *rec, uint32_t n)
{
	struct proc *p = curthread()->t_proc;
	int got = 0;

	if (n == 0)
		return;
	rec[0] = p != NULL ? (uint64_t)p->p_image : 0;
	if (p != NULL)
		got = pid_isa_ustack(rec + 1, (int)n - 1);
	for (uint32_t i = 1 + (uint32_t)got; i < n; i++)
		rec[i] = 0;
}

static int act_stack(struct act_ctx *c, const dt_action *a)
{
	uint32_t n = (uint32_t)(a->ac_arg ? a->ac_arg : c->ac_s->dts_opts.dov_stackframes);

	stack_record(c->ac_f, (uint64_t *)c->ac_data, n);
	return 0;
}

static int act_tracemem(struct act_ctx *c, const dt_action *a)
{
	uint64_t addr, dsize;
	int rc = eval(c, a->ac_args[0], &addr);

	if (rc != 0)
		return rc;
	if (!mem_probe(addr, a->ac_arg) || arch_safe_read(c->ac_data, (const void *)addr, a->ac_arg)) {
		c->ac_f->df_dif.ds_fault = (dif_fault_t){ DIF_FAULT_BADADDR, DIF_PC_NONE, addr };
		return DIF_FAULT_BADADDR;
	}
	if (a->ac_nargs < 2)
		return 0;
	if ((rc = eval(c, a->ac_args[1], &dsize)) == 0)    /* the consumer bounds it */
		memcpy(c->ac_data + ALIGN_UP(a->ac_arg, 8), &dsize, 8);
	return rc;
}

/* agg_key: evaluate the key tuple of aggregation ag into key. */
static int agg_key(struct act_ctx *c, const dt_action *a, const dt_aggdesc *ag, uint8_t *key)
{
	uint32_t strsize = c->ac_s->dts_opts.dov_strsize, frames = c->ac_s->dts_opts.dov_stackframes;
	uint8_t *out = key;

	for (uint32_t i = 0; i < ag->ag_nkeys; i++) {
		const dt_keytype *kt = &ag->ag_keys[i];
		if (kt->kt_kind == DT_KEY_STACK || kt->kt_kind == DT_KEY_USTACK) {
			uint32_t n = dtrace_agg_keysize(kt, strsize, frames) / 8;
			if (kt->kt_kind == DT_KEY_STACK)
				stack_record(c->ac_f, (uint64_t *)out, n);
			else
				dtrace_ustack_record((uint64_t *)out, n);
			out += 8 * n;
			continue;
		}
		const dif_difo_t *dp = a->ac_args[i];
		bool integer = dp->dd_rtype.dt_kind != DIF_TYPE_STRING && dp->dd_rtype.dt_kind != DIF_TYPE_BLOB;
		int rc;
		if (integer && kt->kt_kind < DT_KEY_USYM) {   /* an integer key: straight in */
			uint64_t v;
			if ((rc = eval(c, dp, &v)) != 0)
				return rc;
			memcpy(out, &v, 8);
			out += 8;
			continue;
		}
		rc = record_value(c, dp, &out, true);
		if (rc != 0)
			return rc;
		if (kt->kt_kind >= DT_KEY_USYM) {
			dtrace_uimage_record(out);
			out += 8;
		}
	}
	return 0;
}

/* act_agg: evaluate the keys and arguments, then update this CPU's aggregation. */
static inline __attribute__((always_inline)) int act_agg(struct act_ctx *c, const dt_action *a)
{
	dtrace_state_t *s = c->ac_s;
	const struct dtrace_aggshape *shape = &s->dts_aggshape[a->ac_aggs[0]];
	const dt_aggdesc *ag = shape->das_desc;
	uint8_t *key = NULL;
	int64_t args[4];
	uint32_t nargs = MIN(a->ac_nargs - ag->ag_nkeys, (uint32_t)ARRAY_SIZE(args));

	if (shape->das_keylen != 0) {                /* built at the scratch area's end */
		key = s->dts_scratch[c->ac_f->df_cpu] + TRACE_SCRATCH_SIZE - shape->das_keylen;
		int rc = agg_key(c, a, ag, key);
		if (rc != 0)
			return rc;
	}
	for (uint32_t i = 0; i < nargs; i++) {
		int rc = eval(c, a->ac_args[ag->ag_nkeys + i], (uint64_t *)&args[i]);
		if (rc != 0)
			return rc;
	}
	dtrace_aggbuf_t *buf = &s->dts_agg[c->ac_f->df_cpu];
	uint32_t bucket;
	int64_t *v = dtrace_agg_find(buf, shape, key, &bucket);
	if (v == NULL && (v = dtrace_agg_insert(buf, shape, key, bucket)) == NULL)
		return 0;                            /* full: dropped and counted */
	dtrace_agg_apply(ag, v, args, nargs);
	return 0;
}

/* act_aggop: printa, clear, trunc, normalize, denormalize: the consumer acts on
 * them when it reads the record; the record holds the value argument (or 0). */
static int act_aggop(struct act_ctx *c, const dt_action *a)
{
	uint64_t v = 0;

	if (a->ac_nargs > 0) {
		int rc = eval(c, a->ac_args[0], &v);
		if (rc != 0)
			return rc;
	}
	memcpy(c->ac_data, &v, 8);
	return 0;
}

/* act_chill: spin within the per-CPU bound (destruct.c); beyond it, an illegal operation. */
static int act_chill(struct act_ctx *c, const dt_action *a)
{
	uint64_t ns;
	int rc = eval(c, a->ac_args[0], &ns);

	if (rc == 0 && (rc = dtrace_chill(c->ac_f->df_cpu, ns)) != 0)
		c->ac_f->df_dif.ds_fault = (dif_fault_t){ (uint32_t)rc, DIF_PC_NONE, 0 };
	return rc;
}

static int act_raise(struct act_ctx *c, const dt_action *a)
{
	uint64_t sig;
	int rc = eval(c, a->ac_args[0], &sig);

	if (rc == 0 && (rc = dtrace_action_raise(sig)) != 0)
		c->ac_f->df_dif.ds_fault = (dif_fault_t){ (uint32_t)rc, DIF_PC_NONE, sig };
	return rc;
}

static int spec_id_check(struct act_ctx *c, uint64_t id);

static int action_exec(struct act_ctx *c, const dt_action *a)
{
	uint64_t v;

	switch (a->ac_kind) {
	case DT_ACT_EXPR:
		return a->ac_nargs ? eval(c, a->ac_args[0], &v) : 0;
	case DT_ACT_TRACE: case DT_ACT_PRINTF: case DT_ACT_SYSTEM: case DT_ACT_SYM: case DT_ACT_MOD:
	case DT_ACT_FREOPEN: case DT_ACT_PRINT:
		return act_values(c, a);
	case DT_ACT_EXIT: return act_exit(c, a);
	case DT_ACT_STACK: return act_stack(c, a);
	case DT_ACT_TRACEMEM: return act_tracemem(c, a);
	case DT_ACT_AGG: return act_agg(c, a);
	case DT_ACT_PRINTA: case DT_ACT_CLEAR: case DT_ACT_DENORMALIZE:
	case DT_ACT_NORMALIZE: case DT_ACT_TRUNC:
		return act_aggop(c, a);
	case DT_ACT_CHILL: return act_chill(c, a);
	case DT_ACT_SPECULATE:
		return 0;                            /* chose the buffer before the record */
	case DT_ACT_COMMIT: case DT_ACT_DISCARD: {
		int rc = eval(c, a->ac_args[0], &v);
		if (rc == 0)
			rc = spec_id_check(c, v);
		if (rc == 0 && a->ac_kind == DT_ACT_COMMIT)
			dtrace_spec_commit(c->ac_s, v);
		else if (rc == 0)
			dtrace_spec_discard(c->ac_s, v);
		return rc;
	}
	case DT_ACT_RAISE: return act_raise(c, a);
	case DT_ACT_STOP:
		dtrace_action_stop();                /* at its return to user mode (destruct.c) */
		return 0;
	case DT_ACT_PANIC:
		dtrace_action_panic(c->ac_ecb);
		return 0;
	case DT_ACT_BREAKPOINT:
		dtrace_action_breakpoint(c->ac_ecb);
		return 0;
	case DT_ACT_SETOPT:
		return 0;
	case DT_ACT_USTACK:
		dtrace_ustack_record((uint64_t *)c->ac_data, dtrace_action_size(a, 0, 0) / 8);
		return 0;
	case DT_ACT_USYM: case DT_ACT_UADDR: case DT_ACT_UMOD: {
		int rc = act_values(c, a);
		if (rc == 0)
			dtrace_uimage_record(c->ac_data + 8);
		return rc;
	}
	case DT_ACT_FTRUNCATE:
		/* ftruncate: the consumer acts on the record */
		if (c->ac_data != NULL)
			memset(c->ac_data, 0, 8);
		return 0;
	default:
		c->ac_f->df_dif.ds_fault = (dif_fault_t){ DIF_FAULT_ILLOP, DIF_PC_NONE, 0 };
		return DIF_FAULT_ILLOP;
	}
}

/* ---- errors ---- */

static void ecb_fire(dtrace_firing_t *f, dtrace_ecb_t *ecb);

/*
 * dtrace_error: a clause of ecb faulted in action (0 = predicate).  Records
 * it for the consumer and fires dtrace:::ERROR for that consumer only.  A
 * fault inside an ERROR clause is counted, not reported again.  Probe context.
 */
void dtrace_error(dtrace_ecb_t *ecb, uint32_t action, const dif_fault_t *flt)
{
	dtrace_state_t *s = ecb->dte_state;
	dtrace_firing_t *f = &dtrace_firing[arch_cpu_id()];
	dif_fault_t fault = *flt;

	if (f->df_inerror) {
		s->dts_dblerrors++;
		return;
	}
	s->dts_errors++;
	dtrace_errrec_t *r = (dtrace_errrec_t *)dtrace_buffer_reserve(
		s, &s->dts_buf[arch_cpu_id()], sizeof(*r), DTRACE_REC_END);
	/* The DIF offset in bytes; none (-1) for faults outside DIF, as DTrace. */
	uint32_t off = fault.df_pc == DIF_PC_NONE ? UINT32_MAX : fault.df_pc * 4;
	if (r != NULL)
		*r = (dtrace_errrec_t){ { DTRACE_EPID_ERROR, sizeof(*r) }, ecb->dte_epid, action,
		                        off, fault.df_code, fault.df_addr };
	dtrace_probe_t *ep = dtrace_probe_get(dtrace_probeid_error);
	if (ep == NULL || ep->dtpr_ecb == NULL)
		return;
	dtrace_firing_t saved = *f;
	f->df_inerror = true;
	f->df_faulted = saved.df_probe;
	f->df_probe = ep;
	uint64_t eargs[DIF_NARGS] = { 0, ecb->dte_epid, action, off == UINT32_MAX ? (uint64_t)-1 : off,
	                              fault.df_code, fault.df_addr };
	memcpy(f->df_dif.ds_args, eargs, sizeof(eargs));
	for (dtrace_ecb_t *e = ep->dtpr_ecb; e != NULL; e = e->dte_next)
		if (e->dte_state == s)
			ecb_fire(f, e);
	memcpy(f->df_dif.ds_args, saved.df_dif.ds_args, sizeof(eargs));  /* the probe's, again */
	saved.df_dif = f->df_dif;
	*f = saved;
}

/* ---- firing ---- */

static bool state_wants(const dtrace_state_t *s, const dtrace_probe_t *p)
{
	switch (s->dts_activity) {
	case DTRACE_ACT_WARMUP:
		return p->dtpr_id == dtrace_probeid_begin || p->dtpr_id == dtrace_probeid_error;
	case DTRACE_ACT_ACTIVE:
		return p->dtpr_id != dtrace_probeid_begin && p->dtpr_id != dtrace_probeid_end;
	case DTRACE_ACT_COOLDOWN:
		return p->dtpr_id == dtrace_probeid_end || p->dtpr_id == dtrace_probeid_error;
	default:
		return false;
	}
}

/*
 * spec_id_check: DTrace's rule for the id of speculate(), commit() and
 * discard(): 0 (what a failed speculation() returns) does nothing, an id
 * that no speculation() could return is an illegal operation.
 */
static int spec_id_check(struct act_ctx *c, uint64_t id)
{
	if (id <= c->ac_s->dts_opts.dov_nspec)
		return 0;
	c->ac_f->df_dif.ds_fault = (dif_fault_t){ DIF_FAULT_ILLOP, DIF_PC_NONE, 0 };
	return DIF_FAULT_ILLOP;
}

/*
 * spec_start: speculate(id) in clause order.  The actions before it only
 * computed (D rejects recording ones there: D_SPEC_DREC), so they have run
 * by now, and an assignment such as `self->spec = speculation()` earlier in
 * the clause is what id sees.  The clause's record starts here, in this
 * CPU's buffer of speculation id.  *rec stays NULL when id names no active
 * speculation, or its buffer is full: the rest of the clause is dropped
 * (counted by spec.c), as DTrace does.  Returns a fault code.
 */
static int spec_start(struct act_ctx *c, const dt_action *a, uint8_t **rec)
{
	uint64_t id;
	int rc = eval(c, a->ac_args[0], &id);

	if (rc == 0)
		rc = spec_id_check(c, id);
	if (rc != 0)
		return rc;
	dtrace_buffer_t *b = dtrace_spec_buffer(c->ac_s, id);
	*rec = b ? dtrace_spec_reserve(c->ac_s, b, c->ac_ecb->dte_size) : NULL;
	if (*rec != NULL)
		*(dtrace_rechdr_t *)*rec = (dtrace_rechdr_t){ c->ac_ecb->dte_epid, c->ac_ecb->dte_size };
	c->ac_data = *rec ? *rec + sizeof(dtrace_rechdr_t) : NULL;
	return 0;
}

/*
 * actions_run: the clause's actions in order, each writing its data at its
 * place in rec.  A speculative clause has no record until its speculate().
 * A fault voids the record and reports the action.
 */
static void actions_run(struct act_ctx *c, uint8_t *rec)
{
	const dt_clause *cl = c->ac_ecb->dte_cl;
	const dtrace_optvals_t *o = &c->ac_s->dts_opts;

	c->ac_data = rec ? rec + sizeof(dtrace_rechdr_t) : NULL;
	for (uint32_t i = 0; i < cl->cl_nacts; i++) {
		const dt_action *a = &cl->cl_acts[i];
		int rc;
		if (a->ac_kind == DT_ACT_SPECULATE && c->ac_ecb->dte_size != 0) {
			rc = spec_start(c, a, &rec);
			if (rc == 0 && rec == NULL)
				return;                      /* no speculation, or its buffer full */
		} else {
			rc = action_exec(c, a);
		}
		if (rc != 0) {
			if (rec != NULL)
				((dtrace_rechdr_t *)rec)->dtrh_epid = 0;  /* void: the consumer skips it */
			dtrace_error(c->ac_ecb, i + 1, &c->ac_f->df_dif.ds_fault);
			return;
		}
		if (c->ac_data != NULL)
			c->ac_data += dtrace_action_size(a, o->dov_strsize, o->dov_stackframes);
	}
}

/* cpu_wanted: -x cpu=N: only CPU N's probes fire, and the consumer's BEGIN, END and ERROR. */
static inline bool cpu_wanted(const dtrace_state_t *s, const dtrace_firing_t *f)
{
	dtrace_id_t id = f->df_probe->dtpr_id;

	return s->dts_opts.dov_cpu < 0 || f->df_cpu == s->dts_opts.dov_cpu ||
	       id == dtrace_probeid_begin || id == dtrace_probeid_end || id == dtrace_probeid_error;
}

static void ecb_fire(dtrace_firing_t *f, dtrace_ecb_t *ecb)
{
	dtrace_state_t *s = ecb->dte_state;
	const dt_clause *cl = ecb->dte_cl;
	struct act_ctx c = { f, ecb, s, NULL, false };
	uint64_t v;

	if (!state_wants(s, f->df_probe) || !cpu_wanted(s, f))
		return;
	f->df_ecb = ecb;
	f->df_dif.ds_fault.df_code = 0;
	if (cl->cl_pred != NULL) {
		if (eval(&c, cl->cl_pred, &v) != 0) {
			dtrace_error(ecb, 0, &f->df_dif.ds_fault);
			return;
		}
		if (v == 0)
			return;
	}
	if (ecb->dte_lone_agg) {                 /* @[k] = f(x) alone: no record, no action walk */
		if (act_agg(&c, &cl->cl_acts[0]) != 0)
			dtrace_error(ecb, 1, &f->df_dif.ds_fault);
		return;
	}
	uint8_t *rec = NULL;
	if (ecb->dte_size != 0 && !cl->cl_speculative) {
		rec = record_start(f, ecb);
		if (rec == NULL)
			return;                      /* dropped and counted */
	}
	actions_run(&c, rec);
}

/* ecb_fire_bag: a clause using bag-> runs once per packed value it reads (bag.c). */
static void ecb_fire_bag(dtrace_firing_t *f, dtrace_ecb_t *e)
{
	dtrace_bag_runs_begin(f->df_cpu);
	do
		ecb_fire(f, e);
	while (dtrace_bag_runs_next(f->df_cpu));
}

/*
 * probe_fire: one firing of p on this CPU, interrupts off; not re-entered.
 * Runs the ECBs from e on (the chain's first, or where the fast loop
 * stopped); if action >= 0, e's clause faulted there on the fast loop,
 * before this state existed: it is reported now and the firing goes on
 * with the next ECB.  Stores the arguments before the first ECB that
 * reads them (args 6..9 stay 0).
 */
static inline __attribute__((always_inline)) void probe_fire(dtrace_firing_t *f, dtrace_probe_t *p,
                                                            dtrace_ecb_t *e, int cpu,
                                                            const uint64_t *args, int action)
{
	f->df_inprobe = true;
	f->df_cpu = cpu;
	f->df_probe = p;
	f->df_timestamp = 0;                        /* read on first use (firing_time) */
	f->df_vstart = __builtin_expect(dtrace_vtime_active != 0, 0) ? ktime_ns() : 0;
	bool have_args = false;
	dtrace_state_t *last = NULL;
	if (__builtin_expect(action >= 0, 0)) {     /* its arguments are in ds_args already */
		last = e->dte_state;
		if (last->dts_nlocals != 0)
			memset(last->dts_locals[cpu], 0, last->dts_nlocals * last->dts_slot);
		f->df_ecb = e;
		dtrace_error(e, (uint32_t)action, &f->df_dif.ds_fault);
		e = e->dte_next;
	}
	for (; e != NULL; e = e->dte_next) {
		if (e->dte_state != last) {          /* clause-locals start out zero */
			last = e->dte_state;
			if (last->dts_nlocals != 0)
				memset(last->dts_locals[cpu], 0, last->dts_nlocals * last->dts_slot);
		}
		if ((e->dte_reads_args || e->dte_bag) && !have_args) {   /* args 6..9 stay 0 */
			memcpy(f->df_dif.ds_args, args, 6 * sizeof(uint64_t));
			have_args = true;
		}
		if (__builtin_expect(e->dte_bag, 0))
			ecb_fire_bag(f, e);
		else if (e->dte_lean_on)
			fire_lean(f, e);
		else
			ecb_fire(f, e);
	}
	if (f->df_vstart != 0)                      /* charge the thread for this firing */
		curthread()->t_dtrace_vtime += ktime_ns() - f->df_vstart;
	f->df_ecb = NULL;
	f->df_inprobe = false;
}

void dtrace_probe(dtrace_id_t id, uint64_t arg0, uint64_t arg1, uint64_t arg2,
                  uint64_t arg3, uint64_t arg4, uint64_t arg5)
{
	uint64_t flags = arch_irq_save();
	int cpu = arch_cpu_id();
	dtrace_firing_t *f = &dtrace_firing[cpu];
	dtrace_probe_t *p = probe_enter(f, id, cpu);

	if (p != NULL) {
		uint64_t args[6] = { arg0, arg1, arg2, arg3, arg4, arg5 };
		probe_fire(f, p, p->dtpr_ecb, cpu, args, -1);
	}
	arch_irq_restore(flags);
}

/*
 * probe_fire_at: a firing at a code location the provider names: pc, the
 * frame pointer and return slot there (stack(), caller), and whether pc is
 * user code.  User and kernel addresses may overlap (a machine may put the
 * kernel's image low, where a user space could map too), so the provider
 * says which it is.  Runs the ECBs from e (action: probe_fire's).
 * Inlined with user constant in each caller.
 */
static inline __attribute__((always_inline)) void probe_fire_at(dtrace_firing_t *f, dtrace_probe_t *p,
                                                               dtrace_ecb_t *e, int cpu,
                                                               const uint64_t args[6], uint64_t pc,
                                                               uint64_t fp, const uint64_t *retslot,
                                                               bool user, int action)
{
	f->df_frame_pc = pc;
	f->df_frame_fp = fp;
	f->df_frame_ret = retslot;
	if (user)
		f->df_frame_user = true;
	probe_fire(f, p, e, cpu, args, action);
	if (user)
		f->df_frame_user = false;
	f->df_frame_pc = 0;
}

/*
 * dtrace_fire_rest: the general path from ECB e on (of e's probe), for the
 * fast loop (probe_fast.c) at the first ECB it cannot finish; action as
 * probe_fire's.  Out of line, so that the fast loop saves few registers.
 * The frame is in f already (dtrace_probe_frame put it there; this clears
 * it, as probe_fire_at does).
 */
__attribute__((noinline)) void dtrace_fire_rest(dtrace_ecb_t *e, int cpu, const uint64_t args[6],
                                                int action)
{
	dtrace_firing_t *f = &dtrace_firing[cpu];

	probe_fire(f, e->dte_probe, e, cpu, args, action);   /* the frame is in f already */
	f->df_frame_pc = 0;
}

void dtrace_probe_user(dtrace_id_t id, int cpu, const uint64_t args[6], uint64_t upc)
{
	dtrace_firing_t *f = &dtrace_firing[cpu];
	dtrace_probe_t *p = probe_enter(f, id, cpu);

	if (p != NULL)
		probe_fire_at(f, p, p->dtpr_ecb, cpu, args, upc, 0, NULL, true, -1);
}
