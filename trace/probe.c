/*
 * probe.c - what happens when a probe fires.
 *
 * dtrace_probe() turns interrupts off (dtrace_probe_frame(), for providers
 * that fire from a trap or an interrupt, finds them off already and also
 * records where stack() starts), ignores the consumer's own work (a thread
 * marked untraced), refuses re-entry on the same CPU (counted), and walks
 * the probe's ECB chain.  For each ECB whose consumer
 * is in the right phase (BEGIN only while warming up, END only while cooling
 * down, everything else while active) it runs the predicate, reserves the
 * clause's whole record in the CPU's buffer, and runs the actions in order,
 * each writing its data at its place in the record.  A fault stops the
 * clause: its record is marked void, an error record is written, and the
 * ERROR probe fires for that consumer.  Nothing here sleeps, allocates or
 * takes a lock.
 *
 * Stacks.  stack() and a stack() key come from one walk (stack_record): from
 * the frame dtrace_probe_frame was given, or, for dtrace_probe(), from here,
 * less the leading frames in the framework's own text (found by address);
 * then the probe's aframes come off.  A firing in user code has none.
 *
 * The fast loop.  dtrace_probe_frame (fbt, sdt) first runs the ECBs that
 * enabling made fast (dte_fast, lean.c) before any firing state is set
 * up: a keyless count() or sum(constant) without predicate is one add to
 * the cached value word, in dtrace_probe_frame itself; a lean count() with
 * a plain native predicate and at most one native key copies only the
 * arguments it reads and runs them (probe_fire_count for the chain's last
 * ECB, probe_fire_more's loop otherwise).  The same checks come first
 * (re-entry, the consumer's own thread, the consumer's phase, -x cpu), and
 * at the first ECB the loop cannot finish (any other clause, a first
 * firing that must make the value entry, a fault, vtimestamp being kept)
 * the general path takes over from that ECB, reporting a fault the loop
 * met as it would have.  df_fast counts the firings the loop did alone.
 *
 * Order: per-CPU firing state, memory access for DIF, built-in variables,
 * record sizes, actions, errors, the firing loop.
 *
 * Tests: self-tests trace_* (tests/kernel/trace_selftest.c, trace_fast_selftest.c),
 *        stress_*; tests/d (every runtime topic); tests/e2e/test_firing_trace.py
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/pid_isa.h"
#include "kernel/proc.h"
#include "kernel/thread.h"
#include "trace/trace_impl.h"

static dtrace_firing_t firing[MAX_CPUS];

dtrace_firing_t *dtrace_firing_cpu(int cpu)
{
	return &firing[cpu];
}

/* ---- memory ---- */

/*
 * load_value: the size-byte integer in b, in the machine's byte order (a
 * byte read into the first byte of a uint64_t is the value only on a
 * little-endian machine: on sparc64 it is the value << 56).
 */
static uint64_t load_value(const uint8_t *b, unsigned size)
{
	uint8_t v1; uint16_t v2; uint32_t v4; uint64_t v8;

	switch (size) {
	case 1: memcpy(&v1, b, 1); return v1;
	case 2: memcpy(&v2, b, 2); return v2;
	case 4: memcpy(&v4, b, 4); return v4;
	default: memcpy(&v8, b, 8); return v8;
	}
}

int dtrace_load(void *ctx, uint64_t addr, unsigned size, unsigned space, uint64_t *val)
{
	uint8_t b[8];

	(void)ctx;
	if (size > sizeof(b))
		return DIF_FAULT_BADADDR;
	if (space == DIF_SPACE_USER) {                  /* the current process's memory, never paged in */
		if (!arch_user_probe(addr, size) || arch_safe_read(b, (const void *)addr, size) != 0)
			return DIF_FAULT_BADADDR;
		*val = load_value(b, size);
		return 0;
	}
	if (space != DIF_SPACE_KERNEL)
		return DIF_FAULT_UPRIV;
	if (!mem_probe(addr, size) || arch_safe_read(b, (const void *)addr, size) != 0)
		return DIF_FAULT_BADADDR;
	*val = load_value(b, size);
	return 0;
}

/* dtrace_ustore: copyout/copyoutstr into the current process (destructive; DIF checks -w). */
static int dtrace_ustore(void *ctx, uint64_t uaddr, const void *src, size_t n)
{
	(void)ctx;
	return arch_user_store(uaddr, src, n) == 0 ? 0 : DIF_FAULT_BADADDR;
}

/*
 * dtrace_strcpy_safe: copy the string at src into dst (size bytes, always
 * terminated, the rest zeroed).  Returns the length, or SIZE_MAX if src
 * cannot be read.  Probe context.
 */
size_t dtrace_strcpy_safe(char *dst, uint64_t src, size_t size)
{
	size_t n = 0;

	memset(dst, 0, size);
	while (n + 1 < size) {
		if ((n == 0 || ((src + n) & (PAGE_SIZE - 1)) == 0) && !mem_probe(src + n, 1))
			return SIZE_MAX;
		char c;
		if (arch_safe_read(&c, (const void *)(src + n), 1) != 0)
			return SIZE_MAX;
		if (c == 0)
			break;
		dst[n++] = c;
	}
	return n;
}

/* ---- stacks ---- */

/*
 * The framework's own code: dif/ and trace/ (the firing loop, the actions,
 * and every provider's firing stub, all in trace/prov_*.c) and the JIT's
 * area, one range of the image (linker.ld).  stack() never shows a frame
 * there.
 */
extern char __dtrace_text_start[], __dtrace_text_end[];

static bool framework_pc(uint64_t pc)
{
	return pc >= (uint64_t)__dtrace_text_start && pc < (uint64_t)__dtrace_text_end;
}

#define STACK_FRAMEWORK_MAX 64   /* framework frames above a probe site, at most (a bad chain ends) */

/*
 * stack_walk_here: the stack of a firing from dtrace_probe(), which has no
 * frame to start from: this very call chain, less its leading frames in
 * the framework's text (this walk, the actions, the firing loop,
 * dtrace_probe, the provider's stub), found by address, so it holds however
 * gcc inlined or tail-called them.  The first PC outside is the probe site
 * (xcall+0x6e for sysinfo:::xcalls); the provider's aframes come off after.
 */
static int stack_walk_here(uint64_t *pcs, int max)
{
	uint64_t fp = arch_frame_here();
	uint64_t ret = arch_frame_step(&fp);
	int n = 0;

	for (int i = 0; ret != 0 && framework_pc(ret) && i < STACK_FRAMEWORK_MAX; i++)
		ret = arch_frame_step(&fp);
	if (framework_pc(ret))
		return 0;
	for (; ret != 0 && n < max; ret = arch_frame_step(&fp))
		pcs[n++] = ret;
	return n;
}

/*
 * stack_walk: the probed code's PC, then its callers: from the frame the
 * provider set (dtrace_probe_frame), from here (dtrace_probe), or none for
 * a firing in user code (dtrace_probe_user: pid, a profile sample taken in
 * user mode).
 */
static int stack_walk(dtrace_firing_t *f, uint64_t *pcs, int max)
{
	int n = 0;
	uint64_t fp = f->df_frame_fp;

	if (f->df_frame_user)
		return 0;
	if (f->df_frame_pc == 0)
		return stack_walk_here(pcs, max);
	pcs[n++] = f->df_frame_pc;
	if (f->df_frame_ret != NULL && n < max) {    /* at a boundary: the caller, then its frame */
		uint64_t ret = *f->df_frame_ret;
		if (ret == 0)
			return n;
		pcs[n++] = ret;
	}
	uint64_t ret;
	while (n < max && (ret = arch_frame_step(&fp)) != 0)    /* the machine's frame layout */
		pcs[n++] = ret;
	return n;
}

/* ---- built-in variables ---- */

/* firing_time: timestamp, read once per firing and only if asked for. */
static uint64_t firing_time(dtrace_firing_t *f)
{
	if (f->df_timestamp == 0)
		f->df_timestamp = ktime_ns();
	return f->df_timestamp;
}

static int builtin_string(const char *s, uint64_t *val)
{
	*val = (uint64_t)s;
	return 0;
}

uint32_t dtrace_vtime_active;

/*
 * thread_vtime: DTrace's vtimestamp: the time t has run on a CPU, less the
 * time spent in probe processing: up to the start of this firing (so every
 * read in one firing gives the same value), less what earlier firings
 * charged to t.
 */
static uint64_t thread_vtime(const dtrace_firing_t *f, struct thread *t)
{
	uint64_t now = f->df_vstart != 0 ? f->df_vstart : ktime_ns();
	uint64_t ran = t->t_cputime + (now > t->t_oncpu_at ? now - t->t_oncpu_at : 0);

	return ran > t->t_dtrace_vtime ? ran - t->t_dtrace_vtime : 0;
}

static int dtrace_builtin(void *ctx, uint32_t id, uint64_t index, uint64_t *val)
{
	dtrace_firing_t *f = &firing[arch_cpu_id()];
	dtrace_probe_t *p = f->df_probe;
	struct thread *t = curthread();
	uint64_t pcs[2];

	(void)ctx;
	(void)index;
	switch (id) {
	case DIF_VAR_PROBEPROV: return builtin_string(p->dtpr_provider->dtpv_name, val);
	case DIF_VAR_PROBEMOD: return builtin_string(p->dtpr_mod, val);
	case DIF_VAR_PROBEFUNC: return builtin_string(p->dtpr_func, val);
	case DIF_VAR_PROBENAME: return builtin_string(p->dtpr_name, val);
	case DIF_VAR_EXECNAME: return builtin_string(t->t_name, val);
	case DIF_VAR_TIMESTAMP: *val = firing_time(f); return 0;
	case DIF_VAR_WALLTIMESTAMP: *val = ktime_wall_ns(firing_time(f)); return 0;
	case DIF_VAR_VTIMESTAMP: *val = thread_vtime(f, t); return 0;
	case DIF_VAR_CPU: *val = (uint64_t)arch_cpu_id(); return 0;
	case DIF_VAR_CURTHREAD: *val = (uint64_t)t; return 0;
	case DIF_VAR_CURCPU: *val = (uint64_t)curcpu(); return 0;
	case DIF_VAR_TID: *val = t->t_tid; return 0;
	case DIF_VAR_PID:                    /* a process's, or a consumer's own (thread_set_process) */
		*val = t->t_proc != NULL ? (uint64_t)t->t_proc->p_pid : t->t_pid;
		return 0;
	case DIF_VAR_PPID: *val = t->t_proc != NULL ? (uint64_t)t->t_proc->p_ppid : 0; return 0;
	case DIF_VAR_ERRNO: *val = (uint64_t)t->t_errno; return 0;
	case DIF_VAR_UID:                    /* the real ids; a kernel thread (the console) is root */
		*val = t->t_proc != NULL ? t->t_proc->p_cred.cr_ruid : 0;
		return 0;
	case DIF_VAR_GID:
		*val = t->t_proc != NULL ? t->t_proc->p_cred.cr_rgid : 0;
		return 0;
	case DIF_VAR_IPL:
		*val = 0;
		return 0;
	case DIF_VAR_UREGS:                  /* the process's registers (pid_isa.h) */
		return pid_isa_uregs(index, val) ? 0 : DIF_FAULT_ILLOP;
	case DIF_VAR_UCALLER:
		*val = pid_isa_ustack(pcs, 2) == 2 ? pcs[1] : 0;
		return 0;
	case DIF_VAR_USTACKDEPTH: {
		uint64_t deep[64];
		*val = (uint64_t)pid_isa_ustack(deep, 64);
		return 0;
	}
	case DIF_VAR_ID: *val = p->dtpr_id; return 0;
	case DIF_VAR_EPID: *val = f->df_ecb ? f->df_ecb->dte_epid : 0; return 0;
	case DIF_VAR_CALLER: *val = stack_walk(f, pcs, 2) == 2 ? pcs[1] : 0; return 0;
	case DIF_VAR_STACKDEPTH: {
		uint64_t deep[64];
		*val = (uint64_t)stack_walk(f, deep, 64);
		return 0;
	}
	default:
		return DIF_FAULT_ILLOP;
	}
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

static void dif_prepare(dtrace_firing_t *f, dtrace_state_t *s);

/* jit_run: a DIFO translated at enabling (jit.c); a fault in ds_fault, as the interpreter's. */
static inline int jit_run(dtrace_firing_t *f, dif_jit_fn fn, uint64_t *v)
{
	return fn(&f->df_dif, v);
}

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

/* record_value: evaluate dp and store it (8 bytes or a string) at *out; advances *out. */
static int record_value(struct act_ctx *c, const dif_difo_t *dp, uint8_t **out)
{
	uint64_t v;
	uint32_t strsize = c->ac_s->dts_opts.dov_strsize;
	int rc = eval(c, dp, &v);

	if (rc != 0)
		return rc;
	if (dp->dd_rtype.dt_kind == DIF_TYPE_STRING) {
		if (v == 0 || dtrace_strcpy_safe((char *)*out, v, strsize) == SIZE_MAX) {
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
		int rc = record_value(c, a->ac_args[i], &out);
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
	int got = stack_walk(f, all, (int)MIN(n + skip, (uint32_t)ARRAY_SIZE(all)));
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
		rc = record_value(c, dp, &out);
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
	dtrace_firing_t *f = &firing[arch_cpu_id()];
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
 * dif_prepare: the DIF machine for one clause of state s, set up at the
 * clause's first DIFO (a clause without DIF never pays for it).  Only what
 * differs between clauses is written: the arguments are in ds_args already
 * (probe_fire put them there), and rand()'s state lives on across firings,
 * seeded from the cycle counter once per CPU, not once per clause.
 */
static void dif_prepare(dtrace_firing_t *f, dtrace_state_t *s)
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
	if (__builtin_expect(st->ds_rand == 0, 0))
		st->ds_rand = (arch_cycles() ^ (uint64_t)f->df_cpu) | 1;
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

/* record_start: a clause's record in the principal buffer (NULL: dropped and counted). */
static uint8_t *record_start(dtrace_firing_t *f, dtrace_ecb_t *ecb)
{
	dtrace_state_t *s = ecb->dte_state;
	uint8_t *rec = dtrace_buffer_reserve(s, &s->dts_buf[f->df_cpu], ecb->dte_size,
	                                     ecb->dte_class);

	if (rec != NULL)
		*(dtrace_rechdr_t *)rec = (dtrace_rechdr_t){ ecb->dte_epid, ecb->dte_size };
	return rec;
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
 * ecb_fire_lean: an ECB whose clause is one aggregation that enabling
 * settled (lean.c): a native predicate, native integer keys built on the
 * stack, native or constant values, and a keyless aggregation's values
 * from the buffer's cache.  The same result as ecb_fire's, with none of
 * its questions asked again.
 */
static __attribute__((noinline)) void ecb_fire_lean(dtrace_firing_t *f, dtrace_ecb_t *ecb)
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
 * ecb_fire_lean_count: count() with at most one integer key, the
 * commonest lean shape: the predicate, the key, and one add to the value
 * word (the cached one when keyless).  ecb_fire_lean's result.
 */
static __attribute__((noinline)) void ecb_fire_lean_count(dtrace_firing_t *f, dtrace_ecb_t *ecb,
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
 * ecb_fire_lean_rec: a clause of trace() actions of native integers (or
 * none): the record reserved, its words written in action order; a fault
 * voids it and reports its action, as actions_run does.
 */
static __attribute__((noinline)) void ecb_fire_lean_rec(dtrace_firing_t *f, dtrace_ecb_t *ecb)
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

/*
 * ecb_fire_lean_add: a lean ECB's firing.  The consumer's phase and -x cpu
 * first (a lean ECB is on no BEGIN, END or ERROR probe, so only an active
 * consumer takes it); then a keyless count() or sum() of a constant with
 * no predicate (dl_add) is one add to the cached value word; a count()'s
 * plain predicate runs here, so a false one costs no more calls; anything
 * else, or the first firing on this CPU, is ecb_fire_lean_count's or
 * ecb_fire_lean's.
 */
static inline void ecb_fire_lean_add(dtrace_firing_t *f, dtrace_ecb_t *ecb)
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
		ecb_fire_lean_rec(f, ecb);
	} else if (ecb->dte_lean.dl_count) {
		uint64_t v;
		bool pred = ecb->dte_lean.dl_pred != NULL && !ecb->dte_lean.dl_prepare;
		if (pred && (!lean_run(f, ecb, ecb->dte_lean.dl_pred, 0, &v) || v == 0))
			return;                          /* a plain predicate, false: nothing more */
		ecb_fire_lean_count(f, ecb, pred);
	} else {
		ecb_fire_lean(f, ecb);
	}
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
			ecb_fire_lean_add(f, e);
		else
			ecb_fire(f, e);
	}
	if (f->df_vstart != 0)                      /* charge the thread for this firing */
		curthread()->t_dtrace_vtime += ktime_ns() - f->df_vstart;
	f->df_ecb = NULL;
	f->df_inprobe = false;
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

/* probe_enter: the probe to fire, or NULL (no ECB, the consumer's own work, or a re-entry, counted). */
static inline dtrace_probe_t *probe_enter(dtrace_firing_t *f, dtrace_id_t id, int cpu)
{
	dtrace_probe_t *p = dtrace_probe_get(id);

	if (p == NULL || p->dtpr_ecb == NULL || consumer_running(cpu, id))
		return NULL;
	if (f->df_inprobe) {
		f->df_reentries++;
		return NULL;
	}
	return p;
}

void dtrace_probe(dtrace_id_t id, uint64_t arg0, uint64_t arg1, uint64_t arg2,
                  uint64_t arg3, uint64_t arg4, uint64_t arg5)
{
	uint64_t flags = arch_irq_save();
	int cpu = arch_cpu_id();
	dtrace_firing_t *f = &firing[cpu];
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
 * as it reads).  Consumer phase and -x cpu as ecb_fire_lean_add checks
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
 * then the general path (probe_fire_rest, apart so that the fast loop
 * saves few registers).  The frame is in f already (dtrace_probe_frame
 * put it there; this clears it, as probe_fire_at does).
 */
static __attribute__((noinline)) void probe_fire_rest(dtrace_ecb_t *e, int cpu, const uint64_t args[6],
                                                      int action)
{
	dtrace_firing_t *f = &firing[cpu];

	probe_fire(f, e->dte_probe, e, cpu, args, action);   /* the frame is in f already */
	f->df_frame_pc = 0;
}

static __attribute__((noinline)) void probe_fire_more(dtrace_ecb_t *e, int cpu, const uint64_t args[6])
{
	dtrace_firing_t *f = &firing[cpu];
	int action = -1;

	if (__builtin_expect(dtrace_vtime_active == 0, 1)) {
		e = probe_fire_fast(f, e, cpu, args, &action);
		if (e == NULL) {
			f->df_fast++;
			f->df_frame_pc = 0;
			return;
		}
	}
	probe_fire_rest(e, cpu, args, action);
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
		probe_fire_rest(e, cpu, args, 1);
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
		probe_fire_rest(e, cpu, args, -1);      /* the first firing here: the general path makes it */
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
			probe_fire_rest(e, cpu, args, 0);
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
	dtrace_firing_t *f = &firing[c];

	if (consumer_running((int)c, id))               /* probe_enter's checks, this one first */
		return;
	dtrace_probe_t *p = dtrace_probe_get(id);
	if (p == NULL || p->dtpr_ecb == NULL)
		return;
	if (f->df_inprobe) {
		f->df_reentries++;
		return;
	}
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
		probe_fire_rest(e, cpu, args, -1);       /* the general path at once */
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

void dtrace_probe_user(dtrace_id_t id, int cpu, const uint64_t args[6], uint64_t upc)
{
	dtrace_firing_t *f = &firing[cpu];
	dtrace_probe_t *p = probe_enter(f, id, cpu);

	if (p != NULL)
		probe_fire_at(f, p, p->dtpr_ecb, cpu, args, upc, 0, NULL, true, -1);
}

const dif_env_t dtrace_dif_env = {
	.de_ctx = NULL,
	.de_load = dtrace_load,
	.de_ustore = dtrace_ustore,
	.de_builtin = dtrace_builtin,
	.de_var_load = dtrace_var_load,
	.de_var_store = dtrace_var_store,
	.de_speculation = dtrace_speculation,
	.de_lock = dtrace_lockinfo,
	.de_bag = dtrace_bag,
};
