/*
 * trace_impl.h - the framework's private structures, shared by the files of trace/.
 *
 *   provider ---< probe ---< ECB >--- state (consumer)
 *                             |
 *                             +-- clause (dt_clause): predicate DIFO, actions
 *
 * A probe has a chain of ECBs (enabled probe control blocks), one for each
 * (consumer, clause) that matched it, in enabling order.  An ECB knows its
 * EPID, its consumer state, its clause and the size of the record it writes.
 * A state owns per-CPU principal buffers, per-CPU aggregation buffers, the
 * dynamic variable space, global variable storage and per-CPU scratch.
 *
 * Probe context touches only: the probe table (read), ECB chains (read),
 * the state's buffers and variable space (written, per CPU or with
 * interrupts off), and the per-CPU firing area.  A chain changes by single
 * pointer stores, an ECB complete before it is linked, and nothing a firing
 * may hold is freed before dtrace_sync() (see enable.c), so a firing on any
 * CPU never sees a half-linked or freed ECB.
 */
#ifndef SONDE_TRACE_IMPL_H
#define SONDE_TRACE_IMPL_H

#include "arch/arch.h"
#include "dif/dif.h"
#include "dif/dif_jit.h"
#include "dlang/dt_prog.h"
#include "kernel/cpu.h"
#include "kernel/lock.h"
#include "kernel/time.h"
#include "trace/dtrace.h"

#define TRACE_SCRATCH_SIZE  (16 * 1024)
#define TRACE_MAXLOCALS     64        /* clause-local variables per program */
#define TRACE_MAXVARSIZE    16384     /* bytes of one struct-valued variable */

struct dtrace_provider {
	char dtpv_name[DTRACE_PROVNAMELEN];
	const dtrace_pops_t *dtpv_ops;
	void *dtpv_arg;
	dtrace_pattr_t dtpv_attr;         /* stability of its probes (dtrace_provider_attr_set) */
	bool dtpv_aout;                   /* "a.out" also names its module (dtrace_provider_aout_set) */
	struct dtrace_provider *dtpv_next;
};

struct dtrace_ecb;

typedef struct dtrace_probe {
	dtrace_id_t dtpr_id;
	dtrace_provider_t *dtpr_provider;
	const char *dtpr_mod;
	const char *dtpr_func;
	const char *dtpr_name;
	int dtpr_aframes;
	void *dtpr_arg;
	struct dtrace_ecb *dtpr_ecb;      /* first ECB, in firing order */
	struct dtrace_probe *dtpr_hnext;  /* name hash chain */
	bool dtpr_retired;                /* dtrace_probe_retire: nameless, matches nothing */
} dtrace_probe_t;

#define DTRACE_ECB_NJIT 8              /* the predicate and the first actions' DIFOs */
#define DTRACE_LEAN_NKEYS 4            /* integer keys of a lean clause's aggregation */
#define DTRACE_LEAN_NVALS 2            /* its value and increment */

typedef struct dtrace_ecb {
	dtrace_epid_t dte_epid;
	dtrace_probe_t *dte_probe;
	struct dtrace_state *dte_state;
	uint32_t dte_clause;              /* index in the program */
	const dt_clause *dte_cl;
	uint32_t dte_size;                /* record size incl. header (0: records nothing) */
	uint8_t dte_class;                /* enum dtrace_recclass of its records */
	bool dte_lone_agg;                /* its only action is an aggregation, no record: run it directly */
	bool dte_bag;                     /* its clause calls a baggage subroutine (bag.c): may run per value */
	uint32_t dte_njit;                /* DIFOs of this clause run natively (jit.c) */
	struct dtrace_jit {
		const dif_difo_t *dj_difo;
		dif_jit_fn dj_fn;
		bool dj_plain;            /* needs no DIF machine but the arguments (dif_jit_plain) */
	} dte_jit[DTRACE_ECB_NJIT];
	struct dtrace_ecb *dte_next;      /* next on the probe */
	struct dtrace_ecb *dte_snext;     /* next of the state */
	bool dte_reads_args;              /* some DIFO reads arg0..arg9 or args[] (lean.c) */
	bool dte_lean_on;                 /* fires through ecb_fire_lean (lean.c says when) */
	struct dtrace_lean {              /* what enabling settled for the lean machine */
		dif_jit_fn dl_pred;       /* native predicate, or NULL: none */
		dif_jit_fn dl_key[DTRACE_LEAN_NKEYS];  /* native integer keys */
		dif_jit_fn dl_val[DTRACE_LEAN_NVALS];  /* native values; NULL: dl_const */
		int64_t dl_const[DTRACE_LEAN_NVALS];
		uint8_t dl_nkeys, dl_nvals;
		const struct dtrace_aggshape *dl_shape;
		bool dl_prepare;          /* some DIFO needs the DIF machine set up (dif_prepare, probe_impl.h) */
		bool dl_count;            /* count() with at most one key (ecb_fire_lean_count) */
		bool dl_rec;              /* a record of dl_nkeys trace() words (ecb_fire_lean_rec) */
		bool dl_addone;           /* keyless count()/sum(constant), no predicate: */
		uint32_t dl_aggid;        /* ... one add of dl_add to dta_nokey[dl_aggid] */
		int64_t dl_add;
		uint8_t dl_cmp_op;        /* the predicate is `argN OP constant`: the branch */
		uint8_t dl_cmp_arg;       /* ... op that makes it false (DIF_OP_BE ...), N, */
		uint64_t dl_cmp_val;      /* ... and the constant; dl_cmp_op 0: not that shape */
	} dte_lean;
	uint8_t dte_fast;                 /* how dtrace_probe_frame's fast loop fires it (lean.c) */
	uint8_t dte_fast_nargs;           /* ... the arguments it copies first (0..6) */
} dtrace_ecb_t;

/*
 * dte_fast: what probe.c's fast loop does with an ECB, before any firing
 * state is set up.  NONE: the general path from this ECB on.  ADD: a
 * keyless count() or sum(constant) without predicate, one add to the
 * cached value word.  COUNT: count() with no key or one integer key and
 * at most a predicate, all plain native code (dl_count, no dl_prepare).
 */
enum { DTRACE_FAST_NONE = 0, DTRACE_FAST_ADD, DTRACE_FAST_COUNT };

/* Consumer activity, as DTrace's. */
enum dtrace_activity {
	DTRACE_ACT_INACTIVE = 0,
	DTRACE_ACT_WARMUP,                /* BEGIN is firing */
	DTRACE_ACT_ACTIVE,
	DTRACE_ACT_DRAINING,              /* exit() called: the consumer should stop */
	DTRACE_ACT_COOLDOWN,              /* END is firing */
	DTRACE_ACT_STOPPED,
	DTRACE_ACT_KILLED,                /* the deadman stopped it */
};

/*
 * What a record may use of a principal buffer (buffer.c).  The last bytes
 * of each half are kept back: dts_exit_reserve for one record of a clause
 * that calls exit(), and before that, with the fill policy,
 * dts_end_reserve for END's records (and some room for errors).  So exit() is recorded,
 * and tracing ends, however full the buffer is.
 */
enum dtrace_recclass {
	DTRACE_REC_ORDINARY = 0,          /* may not use the reserves */
	DTRACE_REC_END,                   /* END's records and error records: all but the exit reserve */
	DTRACE_REC_EXIT,                  /* a clause that calls exit(): the whole buffer */
};

/* One CPU's principal buffer: two halves, or one ring. */
typedef struct dtrace_buffer {
	uint8_t *dtb_half[2];
	int dtb_active;                   /* index of the half being written */
	uint64_t dtb_offset;              /* bytes used in the active half */
	uint64_t dtb_size;                /* bytes per half */
	uint64_t dtb_drops;
	bool dtb_full;                    /* fill policy: stop recording */
	uint64_t dtb_ring_head;           /* ring: offset of the oldest record */
	bool dtb_ring_wrapped;
	uint64_t dtb_ring_end;            /* ring: end of valid data before the wrap */
} dtrace_buffer_t;

/* One CPU's aggregation buffer: a hash of entries in aggsize bytes. */
#define DTRACE_AGG_NOKEY 8             /* keyless aggregations cached (agg.c, dtrace_agg_find_nokey) */
typedef struct dtrace_aggbuf {
	uint8_t *dta_base;
	uint64_t dta_size;
	uint64_t dta_used;
	uint32_t *dta_bucket;             /* offset+1 of the first entry; 0 = none */
	uint32_t dta_nbuckets;            /* a power of two: aggsize / 256, within [256, 65536] */
	uint64_t dta_drops;
	int64_t *dta_nokey[DTRACE_AGG_NOKEY]; /* by aggregation id: its keyless entry's values, once made */
} dtrace_aggbuf_t;

/*
 * The dynamic variable space (thread-locals and associative arrays): see
 * dynvar.c for the design and why it is safe on every CPU.  Entries are
 * named by index+1 (0 = none) in chains, lists and buckets.
 */
#define DTRACE_CLEANRATE_DEFAULT_NS (NSEC_PER_SEC / 101)  /* DTrace's 101 Hz */
#define DTRACE_CLEANRATE_MIN_NS     (200 * NSEC_PER_USEC)  /* 5000 Hz */
#define DTRACE_CLEANRATE_MAX_NS     (60 * NSEC_PER_SEC)

typedef struct dtrace_dynvar_cpu {
	uint32_t ddc_free;                /* free list: popped by any CPU (CAS), pushed by the cleaner */
	uint32_t ddc_dirty;               /* entries this CPU deleted: this CPU and the cleaner's xcall */
	uint8_t *ddc_key;                 /* this CPU's key being serialized (dds_keymax bytes) */
	uint64_t ddc_drops;               /* no free entry, nothing waiting to be cleaned */
	uint64_t ddc_dirtydrops;          /* ... while some dirty list was not empty */
	uint64_t ddc_rinsedrops;          /* ... while the cleaner was rinsing entries */
} __attribute__((aligned(64))) dtrace_dynvar_cpu_t;

typedef struct dtrace_dynvar_space {
	uint8_t *dds_base;
	uint64_t dds_size;
	uint32_t dds_chunk;               /* bytes per entry */
	uint32_t dds_keymax;              /* key bytes an entry holds */
	uint32_t dds_valsize;             /* value bytes an entry holds (after its set word) */
	uint32_t dds_nchunks;
	uint32_t dds_nbuckets;
	uint32_t *dds_bucket;             /* chain heads; changed by CAS */
	uint32_t dds_rinsing;             /* entries unlinked, waiting for dtrace_sync */
	uint32_t dds_cleaning;            /* a cleaner pass is running */
	uint64_t dds_cleaned;             /* entries recycled so far */
	struct cyclic dds_cleaner;        /* at the cleanrate option */
	dtrace_dynvar_cpu_t dds_cpu[MAX_CPUS];
} dtrace_dynvar_space_t;

/* What the entries of a space are doing (tests: nothing firing meanwhile). */
typedef struct dtrace_dynvar_census {
	uint32_t ddn_total;
	uint32_t ddn_live;
	uint32_t ddn_dirty;               /* deleted, not yet recycled */
	uint32_t ddn_free;
	uint32_t ddn_onfree;              /* entries reachable from the free lists */
} dtrace_dynvar_census_t;

/* A speculation: one buffer per CPU, and DTrace's states (spec.c explains them). */
enum dtrace_specstate {
	DTRACE_SPEC_INACTIVE = 0, DTRACE_SPEC_ACTIVE, DTRACE_SPEC_ACTIVEONE, DTRACE_SPEC_ACTIVEMANY,
	DTRACE_SPEC_COMMITTING, DTRACE_SPEC_COMMITTINGMANY, DTRACE_SPEC_DISCARDING
};

typedef struct dtrace_spec {
	int dsp_state;                    /* state | ACTIVEONE's CPU << 8 */
	uint64_t dsp_cleaned;             /* CPUs done with this commit or discard */
	dtrace_buffer_t dsp_buf[MAX_CPUS];
} dtrace_spec_t;

typedef struct dtrace_state {
	int dts_activity;                 /* enum dtrace_activity */
	dtrace_optvals_t dts_opts;
	const dt_prog *dts_prog;
	void *dts_dof_arena;                 /* dtrace_enable_dof: where dts_prog lives (kfree at close) */
	dtrace_ecb_t *dts_ecbs;           /* all ECBs of this state */
	dtrace_ecb_t **dts_ecbtab;        /* by EPID - 1 */
	uint32_t dts_necbs;
	bool dts_exited;
	bool dts_linked;                  /* its ECBs are on their probes' chains (enable.c) */
	int dts_exitstatus;
	uint64_t dts_errors;
	uint64_t dts_dblerrors;
	uint64_t dts_laststatus;          /* ktime the consumer last asked for status or data */
	uint64_t dts_alive;               /* ktime the deadman last found the state alive */
	uint32_t dts_end_reserve;         /* fill policy: bytes kept for END records */
	uint32_t dts_exit_reserve;        /* bytes kept for one exit() clause's record */
	uint64_t dts_reclimit[3];         /* by enum dtrace_recclass: bytes of a half it may fill */
	struct cyclic dts_deadman;
	dtrace_buffer_t dts_buf[MAX_CPUS];
	dtrace_aggbuf_t dts_agg[MAX_CPUS];
	dtrace_aggbuf_t dts_aggkept;      /* drained entries, grown by the consumer's thread (agg.c) */
	dtrace_dynvar_space_t dts_dyn;
	uint8_t *dts_globals;             /* global scalars: one slot per variable id */
	uint32_t dts_nglobals;
	uint32_t dts_slot;                /* bytes per global slot: max(8, strsize) */
	uint8_t *dts_scratch[MAX_CPUS];
	uint8_t *dts_locals[MAX_CPUS]; /* clause-locals of the firing on that CPU */
	uint32_t dts_nlocals;             /* local slots the program uses (zeroed per firing) */
	dif_env_t dts_env;                /* DIF callbacks with de_ctx = this state */
	struct dtrace_aggshape {          /* per aggregation, worked out once at enabling */
		const dt_aggdesc *das_desc; /* the program's description of it */
		uint32_t das_keylen;      /* bytes of its key tuple */
		uint32_t das_nvals;       /* value words (dtrace_agg_nvals) */
		uint32_t das_nseg;        /* 0: no string key; else das_seg[] covers the key */
		struct dtrace_keyseg {    /* the key's elements, in order (dtrace_agg_segments) */
			uint32_t ks_words;    /* 8-byte words */
			uint32_t ks_str;      /* a string: hashed and compared up to its NUL's word */
		} das_seg[DT_MAXKEYS];
	} *dts_aggshape;
	dtrace_spec_t *dts_specs;         /* [nspec] */
	uint64_t dts_specdrops;           /* speculative buffer full */
	uint64_t dts_specunavail;         /* speculation() found no free buffer */
	uint64_t dts_specbusy;            /* ... while some were still committing/discarding */
	struct cyclic *dts_specclean;     /* [ncpus] the cleaners, if the program speculates */
	bool dts_vtime;                   /* its program reads vtimestamp: counted in dtrace_vtime_active */
	bool dts_bag;                     /* its program uses bag->: the baggage sites are on (bag.c) */
	struct dtrace_state *dts_next;    /* all states */
} dtrace_state_t;

/* What a CPU is doing while a probe fires on it. */
typedef struct dtrace_firing {
	bool df_inprobe;
	bool df_inerror;
	bool df_frame_user;               /* from dtrace_probe_user: the probed code is user code */
	int df_cpu;                       /* this CPU's index, set as a firing starts */
	uint64_t df_reentries;
	uint64_t df_frame_pc, df_frame_fp; /* from dtrace_probe_frame: where stack() starts */
	const uint64_t *df_frame_ret;     /* ... and the return-address slot at a function boundary */
	dtrace_probe_t *df_probe;
	const dtrace_probe_t *df_faulted; /* in ERROR: the probe whose clause faulted (its stack) */
	dtrace_ecb_t *df_ecb;             /* the clause running (the fast loop's too) */
	uint64_t df_timestamp;
	uint64_t df_vstart;               /* ktime at the firing's start, if vtime is kept; else 0 */
	uint64_t df_fast;                 /* firings done wholly by the fast loop (probe.c) */
	const uint64_t *df_fast_args;     /* ... their arguments across a predicate's call */
	uint64_t df_okpage;               /* kernel page mem_probe passed in this clause, | 1; 0: none */
	dif_state_t df_dif;               /* the probe's arguments are its ds_args */
} dtrace_firing_t;                    /* 472 bytes on x86_64 */

/*
 * dtrace_vtime_active: how many states read vtimestamp.  While nonzero,
 * each firing charges its time to the current thread (t_dtrace_vtime), so
 * that vtimestamp leaves out the time spent in DTrace's predicates and
 * actions, as DTrace defines it; while zero, firings pay one test.
 */
extern uint32_t dtrace_vtime_active;

/* dtrace.c: probes and providers */
dtrace_provider_t *dtrace_provider_find(const char *name);   /* by exact name, or NULL; dtrace_lock */
extern mutex_t dtrace_lock;
extern dtrace_probe_t **dtrace_probes;
extern uint32_t dtrace_nprobes;
/* trace_hash: FNV-1a over n bytes, from h (start with TRACE_HASH_SEED, or that mixed with an id). */
#define TRACE_HASH_SEED 2166136261u
static inline uint32_t trace_hash(uint32_t h, const uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* dtrace_probe_get: probe id, or NULL.  Any context (inline: the firing path's first step). */
static inline dtrace_probe_t *dtrace_probe_get(dtrace_id_t id)
{
	return id - 1 < dtrace_nprobes ? dtrace_probes[id - 1] : NULL;   /* id 0 wraps: none */
}
bool dtrace_probe_matches(const dtrace_probe_t *p, const dtrace_probedesc_t *d);
void dtrace_probe_desc(const dtrace_probe_t *p, dtrace_probedesc_t *out);
int dtrace_probe_enable_hw(dtrace_probe_t *p);
void dtrace_probe_disable_hw(dtrace_probe_t *p);
void dtrace_provide_all(const dtrace_probedesc_t *d);

/* prov_dtrace.c */
extern dtrace_id_t dtrace_probeid_begin, dtrace_probeid_end, dtrace_probeid_error;

/* probe.c: firing */
dtrace_firing_t *dtrace_firing_cpu(int cpu);
void dtrace_error(dtrace_ecb_t *ecb, uint32_t action, const dif_fault_t *f);
extern const dif_env_t dtrace_dif_env;

/* spec.c */
int dtrace_spec_alloc(dtrace_state_t *s);
bool dtrace_spec_used(const dt_prog *p);  /* does any clause speculate, commit or discard? */
void dtrace_spec_free(dtrace_state_t *s);
int dtrace_speculation(void *ctx, uint64_t *id);
dtrace_buffer_t *dtrace_spec_buffer(dtrace_state_t *s, uint64_t id);
uint8_t *dtrace_spec_reserve(dtrace_state_t *s, dtrace_buffer_t *b, uint32_t size);
void dtrace_spec_commit(dtrace_state_t *s, uint64_t id);
void dtrace_spec_discard(dtrace_state_t *s, uint64_t id);
void dtrace_spec_clean(dtrace_state_t *s);

/* destruct.c: the destructive actions (probe context) */
#define DTRACE_CHILL_MAX      (500 * NSEC_PER_MSEC)  /* chill allowed per CPU ... */
#define DTRACE_CHILL_INTERVAL NSEC_PER_SEC           /* ... in each interval of this */
#define DTRACE_NSIG           65                     /* raise(): signals 0 .. DTRACE_NSIG - 1 */
bool dtrace_action_destructive(int kind);          /* does action kind need -w? */
int dtrace_chill(int cpu, uint64_t ns);            /* 0, or DIF_FAULT_ILLOP past the bound */
void dtrace_action_panic(const dtrace_ecb_t *ecb);
void dtrace_action_breakpoint(const dtrace_ecb_t *ecb);
int dtrace_action_raise(uint64_t sig);             /* 0, or DIF_FAULT_ILLOP */
void dtrace_action_stop(void);                    /* stop the current process, if any */

/* buffer.c */
int dtrace_buffer_alloc(dtrace_buffer_t *b, uint64_t size, int policy);
/*
 * bufsize.c: the sizes a state's buffers get (DTrace's rules and bufresize
 * policy), before any is allocated; needed is the program's largest record.
 */
int dtrace_buffer_sizes(dtrace_state_t *s, uint32_t needed);
/*
 * ... and whether the largest record of any ECB (needed) fits in the
 * principal buffer, and under fill END's end_bytes (with the reserves).
 */
int dtrace_buffer_check_end(const dtrace_state_t *s, uint32_t needed, uint32_t end_bytes);
void dtrace_buffer_free(dtrace_buffer_t *b);
void dtrace_buffer_limits(dtrace_state_t *s);
uint8_t *dtrace_buffer_reserve(dtrace_state_t *s, dtrace_buffer_t *b, uint32_t size, int recclass);
long dtrace_buffer_copyout(dtrace_buffer_t *b, int cpu, int policy, void *out, size_t size);

/* agg.c */
int dtrace_aggbuf_alloc(dtrace_aggbuf_t *a, uint64_t size);
void dtrace_aggbuf_free(dtrace_aggbuf_t *a);
void dtrace_agg_kept_free(dtrace_state_t *s);
/*
 * dtrace_agg_segments: fill shape's das_seg/das_nseg from its description
 * (das_nseg stays 0 when no key is a string).  Enabling, once.
 */
void dtrace_agg_segments(struct dtrace_aggshape *shape, uint32_t strsize, uint32_t stackframes);
int64_t *dtrace_agg_find(dtrace_aggbuf_t *a, const struct dtrace_aggshape *shape, const uint8_t *key,
                         uint32_t *bucket);
int64_t *dtrace_agg_insert(dtrace_aggbuf_t *a, const struct dtrace_aggshape *shape, const uint8_t *key,
                           uint32_t bucket);
void dtrace_agg_apply_more(const dt_aggdesc *ag, int64_t *v, int64_t x, int64_t incr);
/* dtrace_agg_word: one-word key k's values on this CPU, found or made.  Probe context. */
int64_t *dtrace_agg_word(dtrace_aggbuf_t *a, const struct dtrace_aggshape *shape, uint64_t k);
/* dtrace_agg_nokey: a keyless aggregation's values on this CPU, found or made, then cached.  Probe context. */
int64_t *dtrace_agg_nokey(dtrace_aggbuf_t *a, const struct dtrace_aggshape *shape);

/*
 * dtrace_agg_apply: one firing of aggregation ag with its nargs arguments
 * (the value, then quantize's increment) applied to its value words v.
 * Inline: count(), sum(), min(), max() and avg() are a word or two of work
 * on every firing; the rest is dtrace_agg_apply_more's.  Probe context.
 */
static inline void dtrace_agg_apply(const dt_aggdesc *ag, int64_t *v, const int64_t *args,
                                    uint32_t nargs)
{
	int64_t x = nargs > 0 ? args[0] : 0;

	switch (ag->ag_func) {
	case DT_AGG_COUNT: v[0]++; break;
	case DT_AGG_SUM: v[0] += x; break;
	case DT_AGG_MIN: if (x < v[0]) v[0] = x; break;
	case DT_AGG_MAX: if (x > v[0]) v[0] = x; break;
	case DT_AGG_AVG: v[0]++; v[1] += x; break;
	default: dtrace_agg_apply_more(ag, v, x, nargs > 1 ? args[1] : 1); break;
	}
}
uint32_t dtrace_agg_keylen(const dt_aggdesc *ag, uint32_t strsize, uint32_t stackframes);

/* dynvar.c: variables.  init/fini: thread context, under dtrace_lock. */
int dtrace_dynvar_init(dtrace_state_t *s);
void dtrace_dynvar_fini(dtrace_state_t *s);
/* dtrace_var_load, dtrace_var_store: the DIF environment's callbacks.  Probe context. */
int dtrace_var_load(void *ctx, const dif_varref_t *ref, uint64_t *val);
int dtrace_var_store(void *ctx, const dif_varref_t *ref, uint64_t value, const void *data, size_t size);
/* dtrace_dynvar_drops: the three kinds of dynamic variable drop, summed over CPUs.  Any context. */
void dtrace_dynvar_drops(const dtrace_state_t *s, uint64_t *drops, uint64_t *dirty, uint64_t *rinsing);
/* dtrace_dynvar_clean: one cleaner pass now (what the cyclic does).  Thread context. */
void dtrace_dynvar_clean(dtrace_state_t *s);
/* dtrace_dynvar_census: count entries by state.  Thread context, for tests. */
void dtrace_dynvar_census(const dtrace_state_t *s, dtrace_dynvar_census_t *out);

/*
 * jit.c: the DIF JIT at enabling.  dtrace_jit_ecb: translate e's predicate
 * and actions' DIFOs when the state's jit option is on (thread context,
 * dtrace_lock).  dtrace_jit_find: e's native code for dp, or NULL
 * (probe context).
 */
void dtrace_jit_ecb(dtrace_ecb_t *e);
/* lean.c: settle e's lean firing (after dtrace_jit_ecb, before linking).  Thread context, dtrace_lock. */
void dtrace_lean_ecb(dtrace_ecb_t *e);
/*
 * dtrace_clause_reads (enable.c): does cl's predicate or an action read a
 * built-in variable in [lo, hi] (ldgs), or, with arrays, a built-in array
 * (ldga: args[], uregs[])?  Enabling time.
 */
bool dtrace_clause_reads(const dt_clause *cl, uint32_t lo, uint32_t hi, bool arrays);
void dtrace_jit_free(dtrace_ecb_t *e);      /* e unreachable now (after dtrace_sync); dtrace_lock */
static inline const struct dtrace_jit *dtrace_jit_entry(const dtrace_ecb_t *e, const dif_difo_t *dp)
{
	for (uint32_t i = 0; i < e->dte_njit; i++)
		if (e->dte_jit[i].dj_difo == dp)
			return &e->dte_jit[i];
	return NULL;
}
static inline dif_jit_fn dtrace_jit_find(const dtrace_ecb_t *e, const dif_difo_t *dp)
{
	const struct dtrace_jit *j = dtrace_jit_entry(e, dp);

	return j != NULL ? j->dj_fn : NULL;
}
struct dtrace_jit_stats {
	uint64_t djs_translated;          /* DIFOs running natively */
	uint64_t djs_interpreted;         /* offered, left to the interpreter */
	uint64_t djs_bytes;               /* native code installed */
};
extern struct dtrace_jit_stats dtrace_jit_st;

/* sync.c: dtrace_sync(), the barrier with probe context (documented in provider.h). */
void dtrace_sync(void);

/* Kernel memory access for DIF (probe.c). */
int dtrace_load(void *ctx, uint64_t addr, unsigned size, unsigned space, uint64_t *val);
size_t dtrace_strcpy_safe(char *dst, uint64_t src, size_t size);
/*
 * dtrace_strcpy_dif: the same for a string dp returned on st (NULL: a state
 * not set up for the clause): what DIF reads in place (dif_inplace_span)
 * is copied with plain loads; key: an aggregation key's field, zeroed only
 * to the end of the NUL's word.  Probe context.
 */
size_t dtrace_strcpy_dif(char *dst, uint64_t src, size_t size, const dif_state_t *st,
                         const dif_difo_t *dp, bool key);

/* lockinfo.c: dif_env_t's de_lock, the lock subroutines' view of a kernel lock. */
int dtrace_lockinfo(void *ctx, uint64_t addr, unsigned query, uint64_t *val);

/*
 * bag.c: D's bag-> scope.  dtrace_bag is dif_env_t's de_bag (probe
 * context).  A clause that reads all of a key's values runs once per value:
 * dtrace_bag_runs_begin before its first run, dtrace_bag_runs_next after
 * each (true: run it again), at most DTRACE_BAG_RUNS runs.  Probe context.
 * dtrace_bag_state_enable / _close turn the kernel's baggage hand-off sites
 * on while a state using bag-> is enabled (thread context, dtrace_lock).
 */
#define DTRACE_BAG_RUNS 16
int dtrace_bag(void *ctx, unsigned op, const char *key, size_t klen, unsigned sel,
               struct dif_bagval *bv);
void dtrace_bag_runs_begin(int cpu);
bool dtrace_bag_runs_next(int cpu);
bool dtrace_bag_clause_uses(const dt_clause *cl);
void dtrace_bag_state_enable(dtrace_state_t *s);
void dtrace_bag_state_close(dtrace_state_t *s);

/* probe.c: ustack()'s record of n words (DTRACE_USTACK_FRAMES).  Probe context. */
void dtrace_ustack_record(uint64_t *rec, uint32_t n);

#endif
