/*
 * dtrace.h - the tracing framework's consumer interface.
 *
 * A consumer (the dtrace command at the console, a kernel thread) talks to
 * the framework only through these calls, which is what would let it move to
 * a ring-3 process unchanged: every DIFO it hands over is validated here as if it
 * came from an untrusted process.
 *
 *   dtrace_open      a new consumer state, with its options   (enable.c)
 *   dtrace_enable    a compiled program (dlang's dt_prog): one ECB (enabled
 *                    probe) per (clause, matching probe), identified by an
 *                    EPID; reports how many probes each clause matched
 *                                                               (enable.c)
 *   dtrace_go        fire BEGIN and start tracing               (enable.c)
 *   dtrace_buffer_snapshot  switch a CPU's principal buffer and copy out the
 *                    records written since the last switch      (buffer.c)
 *   dtrace_agg_snapshot     walk a CPU's aggregation buffer     (agg.c)
 *   dtrace_status_get  counters: drops, errors, exit requested, deadman
 *                    (asking keeps the consumer alive for the deadman)
 *                                                               (enable.c)
 *   dtrace_stop      fire END and stop tracing                  (enable.c)
 *   dtrace_close     disable everything, free the state         (enable.c)
 *   dtrace_probe_list  probes matching a description (for -l and matching)
 *                                                               (dtrace.c)
 *   dtrace_probe_info  what -lv says of a probe: stability and argument
 *                    types                                      (stability.c)
 *
 * The sizes of records and aggregation keys the consumer decodes with are
 * probe.c's and agg.c's; the options' defaults and error messages enable.c's.
 * Each group of declarations below names its file.
 *
 * Calls are thread context (they may sleep and allocate) and serialise on the
 * framework lock.  Errors are negative DTRACE_E* codes; dtrace_errmsg() says
 * what went wrong in words.
 */
#ifndef SONDE_TRACE_DTRACE_H
#define SONDE_TRACE_DTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dlang/dt_prog.h"
#include "kernel/cpu.h"
#include "trace/provider.h"

typedef struct dtrace_state dtrace_state_t;
typedef uint32_t dtrace_epid_t;          /* enabled probe id, from 1 */

/* ---- options ---- */

enum dtrace_bufpolicy {
	DTRACE_BUFPOLICY_SWITCH = 0,         /* two halves, switched by the consumer */
	DTRACE_BUFPOLICY_FILL,               /* stop recording when full; END still fits */
	DTRACE_BUFPOLICY_RING,               /* overwrite the oldest records */
};

typedef struct dtrace_optvals {
	uint64_t dov_bufsize;                /* per-CPU principal buffer (default 4 MiB) */
	int dov_bufpolicy;                   /* enum dtrace_bufpolicy */
	uint64_t dov_aggsize;                /* per-CPU aggregation buffer (default 4 MiB) */
	uint64_t dov_dynvarsize;             /* dynamic variable space (default 1 MiB) */
	uint32_t dov_strsize;                /* string size incl. NUL (default 256) */
	uint32_t dov_nspec;                  /* speculation buffers (default 1) */
	uint64_t dov_specsize;               /* bytes each (default 32 KiB) */
	uint64_t dov_cleanrate_ns;           /* cleanrate: dynamic variable and speculation cleaning period (101 Hz) */
	uint32_t dov_stackframes;            /* stack() depth (default 20) */
	uint64_t dov_deadman_ns;             /* deadman_timeout: abort if not alive this long (10 s) */
	uint64_t dov_deadman_user_ns;        /* deadman_user: alive while status is asked this often (30 s) */
	bool dov_destructive;                /* -w */
	int dov_cpu;                         /* cpu: the only CPU whose probes fire (BEGIN/END aside); -1 all */
	int dov_bufresize;                   /* enum dtrace_bufresize: a size that does not fit */
	uint32_t dov_ustackframes;           /* ustack() depth (default 20): the consumer writes it
	                                        into each ustack() that gives none (dtc_ustack.c) */
	uint32_t dov_jit;                    /* jit: run DIF natively where the machine can (1); 0: never */
} dtrace_optvals_t;

enum dtrace_bufresize {
	DTRACE_BUFRESIZE_AUTO = 0,           /* is halved until it fits (bufsize.c) */
	DTRACE_BUFRESIZE_MANUAL,             /* fails the enabling: DTRACE_ENOMEM */
};

/* dtrace_opts_default (enable.c): DTrace's defaults (sizes scaled for a small VM where noted). */
void dtrace_opts_default(dtrace_optvals_t *o);

/* ---- errors ---- */

/* DTRACE_EINVAL, DTRACE_ENOMEM, ...: negative, from dtrace_errors.def. */
enum dtrace_errno {
#define DTRACE_ERR(NAME, n, msg) DTRACE_##NAME = -(n),
#include "trace/dtrace_errors.def"
#undef DTRACE_ERR
};
const char *dtrace_errmsg(int err);     /* enable.c */

/* ---- records ----
 *
 * A principal buffer holds records back to back, each 8-byte aligned:
 *
 *   +--------------+--------------+---------------------------------+
 *   | epid (u32)   | size (u32)   | payload: each action's data ... |
 *   +--------------+--------------+---------------------------------+
 *
 * size covers the header.  The payload is the concatenation, in clause
 * order, of dtrace_action_size() bytes for each action of the clause (0 for
 * actions that record nothing).  Within an action, each value argument takes
 * 8 bytes (integers, sign- or zero-extended to 64 bits) or strsize bytes
 * (strings, NUL-terminated and NUL-padded), each rounded up to 8.  The
 * special epid DTRACE_EPID_ERROR marks a runtime fault record
 * (struct dtrace_errrec), written to the buffer of the consumer whose clause
 * faulted.
 */
typedef struct dtrace_rechdr {
	uint32_t dtrh_epid;
	uint32_t dtrh_size;
} dtrace_rechdr_t;

#define DTRACE_EPID_ERROR 0xffffffffu

typedef struct dtrace_errrec {
	dtrace_rechdr_t der_hdr;
	uint32_t der_epid;                   /* the enabled probe whose clause faulted */
	uint32_t der_action;                 /* action index from 1; 0 = predicate */
	uint32_t der_pc;                     /* DIF offset in bytes; UINT32_MAX: none */
	uint32_t der_fault;                  /* DTRACEFLT_* code */
	uint64_t der_addr;                   /* faulting address */
} dtrace_errrec_t;

/* dtrace_arg_size (probe.c): bytes one value argument (DIFO) takes in a record. */
uint32_t dtrace_arg_size(const dif_difo_t *dp, uint32_t strsize);
/*
 * ustack() records and keys: one word naming the process's image (a
 * const struct kfile *, or 0), then the frames, DTRACE_USTACK_FRAMES of
 * them when ustack() gives no count; a 0 PC ends them.
 */
#define DTRACE_USTACK_FRAMES 20

/* dtrace_action_size (probe.c): bytes action a takes in a record (see above). */
uint32_t dtrace_action_size(const dt_action *a, uint32_t strsize, uint32_t stackframes);

/* What an EPID stands for. */
typedef struct dtrace_epinfo {
	dtrace_id_t dei_probe;               /* probe id */
	uint32_t dei_clause;                 /* index in the program's dp_clauses */
	uint32_t dei_size;                   /* record size including the header */
	dtrace_probedesc_t dei_desc;         /* the probe's full name */
} dtrace_epinfo_t;

/* ---- aggregations ----
 *
 * Each CPU keeps its own aggregation buffer; the consumer merges them.  An
 * entry is (aggregation index, key tuple, value).  The key is each key
 * element in turn: 8 bytes for integers, strsize bytes for strings (rounded
 * up to 8), 8 bytes per frame for stacks.  The
 * value is dtrace_agg_nvals() int64_t words:
 *   count, sum, min, max   1 word
 *   avg                    2 words: count, sum
 *   stddev                 4 words: count, sum, sum of squares (128 bits, low then high)
 *   quantize               DTRACE_QUANTIZE_NBUCKETS words (bucket counts)
 *   lquantize              levels + 2 words: underflow, buckets, overflow
 *   llquantize             the illumos layout (dtrace_llquantize_nbuckets)
 * The functions of this part are agg.c's.
 */
#define DTRACE_QUANTIZE_NBUCKETS 127     /* -2^63 .. 2^63 by powers of two, and zero */
#define DTRACE_QUANTIZE_ZEROBUCKET 63
uint32_t dtrace_agg_nvals(const dt_aggdesc *ag);
/* dtrace_agg_keysize: bytes one key element takes (stacks: 8 per frame). */
uint32_t dtrace_agg_keysize(const dt_keytype *kt, uint32_t strsize, uint32_t stackframes);
int dtrace_quantize_bucket(int64_t v);   /* index of v's bucket */
uint32_t dtrace_llquantize_nbuckets(const dt_aggdesc *ag); /* 0: bad parameters */
int dtrace_llquantize_bucket(const dt_aggdesc *ag, int64_t v);
int64_t dtrace_llquantize_bucketval(const dt_aggdesc *ag, int i); /* lower bound */
int64_t dtrace_quantize_bucketval(int i); /* lower bound of bucket i */

typedef void dtrace_agg_fn(void *arg, uint32_t aggid, const void *key, uint32_t keylen,
                           const int64_t *vals, uint32_t nvals);

/* ---- status ---- */

typedef struct dtrace_status {
	bool dst_exited;                     /* exit() was called (the state is draining) */
	int dst_exitstatus;                  /* its argument */
	bool dst_killed;                     /* the deadman aborted tracing */
	bool dst_filled;                     /* a fill-policy buffer filled: stop */
	uint64_t dst_errors;                 /* runtime faults */
	uint64_t dst_dblerrors;              /* faults inside ERROR clauses */
	uint64_t dst_dyndrops;               /* dynamic variable drops */
	uint64_t dst_dyndirty;               /* ... with non-empty dirty list */
	uint64_t dst_dynrinse;               /* ... with non-empty rinsing list */
	uint64_t dst_specdrops;              /* speculative buffer full */
	uint64_t dst_specunavail;            /* speculation() found no free buffer */
	uint64_t dst_specbusy;               /* buffers still busy on another CPU */
	uint64_t dst_aggdrops[MAX_CPUS];     /* per CPU */
	uint64_t dst_drops[MAX_CPUS];        /* per CPU principal buffer drops */
	uint64_t dst_reentries;              /* firings refused because of re-entry */
} dtrace_status_t;

/* ---- calls ---- */

/* The consumer state's life (enable.c). */
int dtrace_open(const dtrace_optvals_t *opts, dtrace_state_t **sp);

/*
 * dtrace_enable: enable prog (which must stay valid until dtrace_close).
 * matched[i] receives how many probes clause i matched (array of
 * prog->dp_nclauses; may be NULL).  Validates every DIFO (errors go to
 * errbuf as "clause N, action M: DIF offset K: reason").  Returns 0 or an
 * error; on error nothing stays enabled.
 */
int dtrace_enable(dtrace_state_t *s, const dt_prog *prog, uint32_t *matched,
                  char *errbuf, size_t errlen);

/*
 * dtrace_enable_dof: enable the program in DOF (dif/dof.h, docs/dof.md;
 * the consumer writes it with dt_dof_write).  The kernel validates all of
 * it (trace/dof.c) and builds its own program from it: dof need not stay
 * valid after the call.  matched[] as for dtrace_enable, with room for the
 * DOF's clauses (its ECBDESC sections).  Malformed DOF is DTRACE_EINVAL (a
 * DIF object that fails validation DTRACE_EDIF) with a message in errbuf
 * naming the fault ("DOF: section 7 (ACTDESC): ...").  At most
 * DTRACE_DOF_MAXSIZE bytes.
 */
#define DTRACE_DOF_MAXSIZE (8u << 20)
int dtrace_enable_dof(dtrace_state_t *s, const void *dof, size_t len, uint32_t *matched,
                      char *errbuf, size_t errlen);

/*
 * dtrace_opts_get: the state's options as enabling made them: a buffer size
 * that did not fit is lowered there (bufresize=auto; see trace/bufsize.c).
 */
void dtrace_opts_get(dtrace_state_t *s, dtrace_optvals_t *out);

int dtrace_go(dtrace_state_t *s);        /* fires BEGIN on this CPU */
int dtrace_stop(dtrace_state_t *s);      /* fires END; idempotent */
void dtrace_close(dtrace_state_t *s);

/*
 * dtrace_buffer_snapshot (buffer.c): switch CPU cpu's buffer halves and copy the
 * records of the now-inactive half into buf (size bytes).  Returns the number
 * of bytes copied (whole records only), or a negative error.  If buf is too
 * small the rest stays for the next call.
 */
long dtrace_buffer_snapshot(dtrace_state_t *s, int cpu, void *buf, size_t size);

/* Aggregations (agg.c). */
/* dtrace_agg_snapshot: call fn for every entry of CPU cpu's aggregation buffer. */
int dtrace_agg_snapshot(dtrace_state_t *s, int cpu, dtrace_agg_fn *fn, void *arg);
/* dtrace_agg_clear: zero the values of aggregation aggid (all if UINT32_MAX) on every CPU. */
void dtrace_agg_clear(dtrace_state_t *s, uint32_t aggid);
/* dtrace_agg_remove: drop aggid's entry for key (every entry if key is NULL) on every CPU. */
void dtrace_agg_remove(dtrace_state_t *s, uint32_t aggid, const void *key, uint32_t keylen);
/*
 * dtrace_agg_drain: move what every CPU's aggregation buffer holds into the
 * state's kept table (which grows as needed), emptying the buffers: the
 * consumer calls it at aggrate, so aggsize need only hold one period's new
 * keys.  Snapshots see the kept table with CPU 0.  Thread context.
 */
int dtrace_agg_drain(dtrace_state_t *s);
/* dtrace_agg_merge: add from's n values into to as aggregation ag's function merges them (agg.c). */
void dtrace_agg_merge(const dt_aggdesc *ag, int64_t *to, const int64_t *from, uint32_t n);

/* Status and the meaning of records (enable.c). */
void dtrace_status_get(dtrace_state_t *s, dtrace_status_t *st);
int dtrace_epid_info(dtrace_state_t *s, dtrace_epid_t epid, dtrace_epinfo_t *out);
int dtrace_ncpus(void);

/* Probes and their descriptions (dtrace.c; stability.c for the attributes). */
/* dtrace_desc_of: the framework's form of a compiled probe description (id 0). */
dtrace_probedesc_t dtrace_desc_of(const dt_probedesc *pd);
/* dtrace_probe_list: call fn for each probe matching desc (after asking providers to provide). */
typedef void dtrace_list_fn(void *arg, dtrace_id_t id, const dtrace_probedesc_t *desc);
int dtrace_probe_list(const dtrace_probedesc_t *desc, dtrace_list_fn *fn, void *arg);
/*
 * dtrace_probe_info: what dtrace -lv says about probe id: the attributes of
 * its description (the lowest of its provider's and, for each of module,
 * function and name that the probe has, that part's) and of its arguments,
 * and how many arguments have a known type (argtypes[0..argc), as D names
 * them; Sonde knows none yet: no CTF).  Returns 0, or DTRACE_EINVAL if
 * there is no such probe.  Thread context; takes the framework lock (not
 * from a dtrace_probe_list callback).
 */
#define DTRACE_ARGTYPELEN 64
typedef struct dtrace_probeinfo {
	dtrace_probedesc_t dpi_desc;         /* its name */
	dtrace_attribute_t dpi_attr;         /* probe description attributes */
	dtrace_attribute_t dpi_arga;         /* argument attributes */
	int dpi_argc;
	char dpi_argtypes[10][DTRACE_ARGTYPELEN];   /* as D sees them (translated) */
	char dpi_argnative[10][DTRACE_ARGTYPELEN];  /* the native types ("" if the same) */
	int8_t dpi_argmap[10];                      /* the native argument each comes from */
} dtrace_probeinfo_t;
int dtrace_probe_info(dtrace_id_t id, dtrace_probeinfo_t *out);
/*
 * dtrace_desc_info: the same for a probe description (dtrace -v): the
 * attributes of the parts it names (an empty field or a glob names none;
 * a provider it does not name exactly counts as Unstable/Unstable/Common).
 * Thread context; takes the framework lock.
 */
void dtrace_desc_info(const dtrace_probedesc_t *desc, dtrace_probeinfo_t *out);
/* dtrace_attr_min: the lower of two attribute triples, member by member. */
dtrace_attribute_t dtrace_attr_min(dtrace_attribute_t a, dtrace_attribute_t b);
/* dtrace_stability_name, dtrace_class_name: "Evolving", "Common", ... as DTrace prints them. */
const char *dtrace_stability_name(int stability);
const char *dtrace_class_name(int class);
/* dtrace_probe_count: probes matching desc (the compiler's o_match). */
int dtrace_probe_count(const dtrace_probedesc_t *desc);


/* dtrace_init: boot: register the dtrace provider (BEGIN, END, ERROR). */
void dtrace_init(void);

#endif
