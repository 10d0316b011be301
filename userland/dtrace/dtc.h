/*
 * dtc.h - the dtrace command (the console consumer), shared by its files.
 *
 *   dtrace_cmd.c   the command: options, compiling, enabling, the run loop
 *   dtc_print.c    records: the header, trace, printf, stack, errors, drops
 *   dtc_agg.c      aggregations: merging the CPUs' buffers, sorting, printing
 *   dtc_printa.c   printa(): one or several aggregations joined on their keys
 *   dtc_proc.c     the processes dtrace creates: -c's command
 *   dtc_list.c     -l and -lv: probes, their stability and argument types
 *   dtc_dis.c      -S: the compiled DIF, as illumos prints it
 *   dtc_stability.c  -v: the program stability report
 *
 * The consumer talks to the framework only through trace/dtrace.h, so it
 * could move to ring 3 unchanged.  Output goes to standard output
 * (kprintf), messages to standard error (kprintf_err), byte for byte as
 * DTrace's dtrace(1M) prints them.
 */
#ifndef SONDE_DTC_H
#define SONDE_DTC_H

#include <stdbool.h>
#include <stdint.h>
#include "dlang/dt.h"
#include "trace/dtrace.h"

#define DTC_MAXDESCS 16

enum dtc_desc_kind { DTC_NAME, DTC_SCRIPT, DTC_PROVIDER, DTC_MODULE, DTC_FUNCTION, DTC_ID };

struct dtc_desc {
	enum dtc_desc_kind dd_kind;
	const char *dd_text;             /* as given on the command line */
	char *dd_src;                    /* D source to compile */
	uint32_t dd_len;
	uint32_t dd_line, dd_endline;    /* its lines [line, endline) in the combined program */
};

/* A merged aggregation entry (consumer side). */
struct dtc_aggent {
	uint32_t ae_aggid;
	uint32_t ae_keylen;
	const uint8_t *ae_key;
	int64_t *ae_vals;
	uint32_t ae_nvals;
};

struct dtc {
	/* command line */
	struct dtc_desc descs[DTC_MAXDESCS];
	int ndescs;
	bool quiet, list, verbose, compile_only, show_dif, zdefs, destructive;
	bool errtags, droptags;
	const char *ccmd;                /* -c */
	int sortkey, sortkeypos, sortrev, sortpos;
	uint64_t switchrate_ns, aggrate_ns;
	dtrace_optvals_t ov;
	int macro_argc;
	const char *const *macro_argv;
	/* compiled and running */
	dt_prog *prog;
	void *arena;
	dtrace_state_t *state;
	dtrace_epinfo_t *epinfo;         /* [epid - 1] */
	uint32_t nepids;
	uint8_t *buf;                    /* snapshot buffer (bufsize) */
	bool header_done;
	bool *agg_printed;               /* [aggid]: printed by printa */
	int64_t *agg_normal;             /* [aggid]: normalize() factor (1 = none) */
	dtrace_status_t last;            /* counters already reported */
	struct dtc_aggent *aggs;         /* merged snapshot */
	uint32_t naggs, aggcap;
	uint32_t *agghash;               /* open addressing: index+1 into aggs; 0 empty */
	uint32_t agghash_size;           /* a power of two, at least twice naggs */
	bool interrupted;                /* Ctrl-C: tracing stopped */
	bool impatient;                  /* a second Ctrl-C: printing stopped too */
	bool stopped;                    /* dtrace_stop was called */
	unsigned long intr_base;         /* console_interrupt_count() when the command began */
	uint64_t next_status;            /* while printing: when to ask for status next */
	struct dtc_proc *proc;           /* -c's command, while it is ours */
	char saved_name[32];             /* the shell thread's execname and pid, */
	uint64_t saved_pid;              /* while it runs as the dtrace process */
};

/* dtrace_cmd.c */
/*
 * dtc_poll: called every few records while printing.  A Ctrl-C stops
 * tracing at once (what was recorded is still printed, as DTrace does); a
 * second one stops the printing as well.  Asking for status now and then
 * tells the deadman that the consumer is alive.  Returns false when printing
 * should stop.
 */
bool dtc_poll(struct dtc *d);

/*
 * dtc_proc.c: the command itself as a process.  dtc_process_enter makes
 * the calling thread the "dtrace" process (execname "dtrace", pid its tid:
 * BEGIN and END fire in the consumer's context, as in DTrace, and $pid is
 * dtc_process_pid()); dtc_process_leave gives the thread back its own.
 */
void dtc_process_enter(struct dtc *d);
void dtc_process_leave(struct dtc *d);
uint64_t dtc_process_pid(void);

/* dtc_proc.c: -c's command, created when tracing starts, released (killed if still running) at the end */
struct dtc_proc;
bool dtc_proc_exists(const char *line);            /* a workload or a shell command? */
struct dtc_proc *dtc_proc_create(const char *line); /* NULL: out of memory */
bool dtc_proc_done(const struct dtc_proc *p);       /* it ended by itself */
int dtc_proc_release(struct dtc_proc *p);           /* kill if running, reap, free; its status */

/* dtc_dis.c: -S, the program's DIF as illumos's dtrace prints it (standard error) */
void dtc_show_dif(struct dtc *d);

/* dtc_list.c: -l and -lv; returns the command's status */
int dtc_list(struct dtc *d);
/* dtc_list_info: the -lv block under a probe: its attributes and argument types */
void dtc_list_info(const dtrace_probeinfo_t *pi);

/*
 * dtc_stability.c: -v's program stability report for each description and
 * script, on standard output; tracing false (-e) adds each clause's probe
 * descriptions.
 */
void dtc_stability_report(struct dtc *d, bool tracing);

/* dtc_print.c */
void dtc_records(struct dtc *d, int cpu, const uint8_t *buf, long len);
void dtc_report_drops(struct dtc *d);
/*
 * dtc_report_sizes: after enabling, say which buffer sizes were lowered to
 * fit ("dtrace: buffer size lowered to 32m"), and take the sizes the
 * buffers really have into d->ov.
 */
void dtc_report_sizes(struct dtc *d);
void dtc_print_sym(uint64_t pc, bool with_offset, char *buf, size_t size);
void dtc_print_stack(const uint64_t *pcs, uint32_t n);
/*
 * dtc_sym_normal: what an aggregation key of func(pc)/sym(pc) (module
 * false) or mod(pc) (true) holds once normalized, as DTrace does before
 * merging: the start of pc's symbol, or of its module; pc itself if it is
 * in no symbol.  Thread context.
 */
uint64_t dtc_sym_normal(uint64_t pc, bool module);
/* dtc_print_int: an integer of size bytes as trace() prints it (not quiet: as keys print too). */
void dtc_print_int(int64_t v, uint32_t size, bool quiet);
const dt_conv *dtc_fmt_next(const dt_fmtdesc *fd, const char **t, uint32_t *ci);

/* dtc_agg.c: merged entries, their values, order and printing */
const dt_aggdesc *dtc_agg_desc(struct dtc *d, uint32_t aggid);
struct dtc_aggent *dtc_agg_find(struct dtc *d, uint32_t aggid, const void *key, uint32_t keylen);
int64_t dtc_agg_normal(struct dtc *d, uint32_t aggid, int64_t v);
__int128 dtc_agg_sortval(struct dtc *d, const struct dtc_aggent *e);
/* dtc_agg_valcmp: entries by value, ties by the count in the bucket of 0 (NULL counts as 0). */
int dtc_agg_valcmp(struct dtc *d, const struct dtc_aggent *a, const struct dtc_aggent *b);
/*
 * dtc_agg_order: the order of two entries' keys (or rows keyed by them)
 * under aggsortkey, aggsortkeypos and aggsortrev, given vc, how their values
 * compare; ties go to the whole key.
 */
int dtc_agg_order(struct dtc *d, const struct dtc_aggent *a, const struct dtc_aggent *b, int vc);
/* dtc_sort: sort v[0..n) by cmp(arg, x, y), stable, in n log n; unsorted if out of memory. */
typedef int dtc_cmp_fn(void *arg, const void *x, const void *y);
void dtc_sort(void **v, uint32_t n, dtc_cmp_fn *cmp, void *arg);
void dtc_agg_print_keys(struct dtc *d, const struct dtc_aggent *e);
void dtc_agg_print_value(struct dtc *d, const struct dtc_aggent *e);
void dtc_agg_print_hist(struct dtc *d, const struct dtc_aggent *e, bool blank_after);
int dtc_agg_snapshot(struct dtc *d);
void dtc_agg_print_all(struct dtc *d);
void dtc_printa(struct dtc *d, const dt_action *a);
void dtc_agg_apply(struct dtc *d, const dt_action *a, int64_t value);
void dtc_agg_free(struct dtc *d);

/* output */
void dtc_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void dtc_outn(const char *s, size_t n);
void dtc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
