/*
 * dtc.h - the dtrace command (the console consumer), shared by its files.
 *
 *   dtrace_cmd.c   the command: compiling, enabling, the run loop
 *   dtc_args.c     the command line: dtrace(1M)'s flags, operands, usage
 *   dtc_opt.c      options: -x, #pragma D option, the flags that set them
 *   dtc_desc.c     -n/-P/-m/-f/-i arguments into D (fields, probe ids)
 *   dtc_print.c    records: the header, trace, printf, stack, errors, drops
 *   dtc_agg.c      aggregations: merging the CPUs' buffers, sorting, printing
 *   dtc_printa.c   printa(): one or several aggregations joined on their keys
 *   dtc_format.c   one printf/printa conversion, formatted as libdtrace does
 *   dtc_proc.c     the processes dtrace creates: -c's command
 *   dtc_lib.c      the D library files handed to the compiler
 *   dtc_float.c    printf's %e %f %g of float, double and long double bytes
 *   dtc_typeprint.c  print(): a value by its D type, as illumos prints it
 *   dtc_list.c     -l and -lv: probes, their stability and argument types
 *   dtc_dis.c      -S: the compiled DIF, as illumos prints it
 *   dtc_stability.c  -v: the program stability report
 *   dtc_json.c     -x oformat=json: every record as one JSON object a line
 *   dtc_cpp.c      -C, -D, -U, -I, -H: the C preprocessor before compiling
 *   dtc_anon.c     anonymous tracing: the boot's enabling, claimed by -a
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
#define DTC_MAXCPPDEFS 32                /* -D and -U */
#define DTC_MAXCPPDIRS 16                /* -I */
#define DTC_MAXLIBDIRS 16                /* -L */

enum dtc_desc_kind { DTC_NAME, DTC_SCRIPT, DTC_PROVIDER, DTC_MODULE, DTC_FUNCTION, DTC_ID };

struct dtc_desc {
	enum dtc_desc_kind dd_kind;
	const char *dd_text;             /* as given on the command line */
	char *dd_src;                    /* D source to compile */
	uint32_t dd_len;
	uint32_t dd_line, dd_endline;    /* its lines [line, endline) in the combined program */
	bool dd_src_owned;               /* dd_src is kmalloc'd: a script read from /tmp, or the preprocessor's output */
	uint32_t dd_srclines;            /* newlines in the source as written (before -C) */
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
	struct dtc_desc dc_descs[DTC_MAXDESCS];
	int dc_ndescs;
	bool dc_quiet, dc_list, dc_verbose, dc_compile_only, dc_show_dif, dc_zdefs, dc_destructive;
	bool dc_errtags, dc_droptags;
	bool dc_json;                       /* -x oformat=json (dtc_json.c) */
	bool dc_cpp, dc_cpp_hdrs;              /* -C, -H (dtc_cpp.c) */
	bool dc_follow_once;                /* dtc_trace_follow: one pass (dtrace -ae) */
	const char *dc_cpp_defs[DTC_MAXCPPDEFS];   /* "Dname[=value]", "Uname", in order */
	int dc_ncpp_defs;
	const char *dc_cpp_dirs[DTC_MAXCPPDIRS];   /* -I */
	int dc_ncpp_dirs;
	const char *dc_ccmd;                /* -c */
	const char *dc_pgrab;               /* -p */
	const char *dc_ofile;               /* -o */
	struct file *dc_out_orig;           /* standard output when the command began (NULL: the console) */
	struct file *dc_out_file;           /* -o's file, open (ours), or NULL */
	struct file *dc_freopen_file;       /* freopen()'s file, open (ours), or NULL */
	int dc_sortkey, dc_sortkeypos, dc_sortrev, dc_sortpos;
	bool dc_aggpercpu;                  /* print each CPU's value under the total */
	bool dc_aggzoom;                    /* histogram bars scaled to the largest bucket */
	uint64_t dc_switchrate_ns, dc_aggrate_ns;
	dtrace_optvals_t dc_ov;
	int dc_macro_argc;
	const char *const *dc_macro_argv;
	/* options and flags of dtc_opt.c and dtc_args.c */
	bool dc_flowindent, dc_rawbytes, dc_grabanon, dc_defargs, dc_argref;
	uint32_t dc_version;            /* -x version=: the D version bound (0: the newest) */
	bool dc_gen_object, dc_gen_header, dc_version_only;   /* -G, -h, -V */
	int dc_stackindent;                 /* stackindent: columns before each frame (14) */
	const char **dc_operands;           /* $0 and the dc_operands, for macro_argv */
	/* flowindent while printing */
	int dc_indent;                      /* columns */
	uint32_t dc_last_epid;              /* the record printed last (0: none) */
	/* compiled and running */
	dt_prog *dc_prog;
	void *dc_arena;
	dtrace_state_t *dc_state;
	dtrace_epinfo_t *dc_epinfo;         /* [epid - 1] */
	uint32_t dc_nepids;
	uint8_t *dc_buf;                    /* snapshot buffer (bufsize) */
	bool dc_header_done;
	bool *dc_agg_printed;               /* [aggid]: printed by printa */
	int64_t *dc_agg_normal;             /* [aggid]: normalize() factor (1 = none) */
	dtrace_status_t dc_last;            /* counters already reported */
	struct dtc_aggent *dc_aggs;         /* merged snapshot */
	uint32_t dc_naggs, dc_aggcap;
	uint32_t *dc_agghash;               /* open addressing: index+1 into dc_aggs; 0 empty */
	uint32_t dc_agghash_size;           /* a power of two, at least twice naggs */
	bool dc_interrupted;                /* Ctrl-C: tracing stopped */
	bool dc_impatient;                  /* a second Ctrl-C: printing stopped too */
	bool dc_stopped;                    /* dtrace_stop was called */
	unsigned long dc_intr_base;         /* console_interrupt_count() when the command began */
	uint64_t dc_next_status;            /* while printing: when to ask for status next */
	struct dtc_proc *dc_proc;           /* -c's command, while it is ours */
	uint64_t dc_uimage;                 /* its program's image once released (dtc_uimage) */
	const char *dc_libdir;              /* -x libdir=; NULL: usr/lib/dtrace */
	const char *dc_libdirs[DTC_MAXLIBDIRS];   /* -L, after it (dtc_lib.c) */
	int dc_nlibdirs;
	bool dc_model32;                    /* -32: only -h can honour it */
	char dc_saved_name[32];             /* the shell thread's execname and pid, */
	uint64_t dc_saved_pid;              /* while it runs as the dtrace process */
};

/* dtrace_cmd.c */
/* dtc_compile: compile the descriptions and apply their #pragma options; -1 or an exit status. */
int dtc_compile(struct dtc *d);
/*
 * dtc_trace_start: enable the compiled program and go (BEGIN fires);
 * untraced: the calling thread becomes untraced (a consumer).  -1, or an
 * exit status after DTrace's message.  dtc_trace_follow: then read and
 * print until exit(), Ctrl-C, the -c command's end (or at once with
 * follow_once), stop (END fires), print the aggregations; the exit status.
 */
int dtc_trace_start(struct dtc *d, bool untraced);
int dtc_trace_follow(struct dtc *d);
void dtc_free(struct dtc *d);                      /* everything the command allocated */
/*
 * dtc_anon.c: anonymous tracing.  dtc_anon_claim is dtrace -a: take the
 * enabling the boot made (kernel/init.h's dtrace_anon_boot) and print it as
 * d's options say; DTrace's "No anonymous tracing state" if there is none.
 */
int dtc_anon_claim(struct dtc *d);
/*
 * dtc_poll: called every few records while printing.  A Ctrl-C stops
 * tracing at once (what was recorded is still printed, as DTrace does); a
 * second one stops the printing as well.  Asking for status now and then
 * tells the deadman that the consumer is alive.  Returns false when printing
 * should stop.
 */
bool dtc_poll(struct dtc *d);

/* dtc_opt.c: options (-x, #pragma D option and the flags that stand for options) */
/* dtc_opt_set: set option name to val (NULL: none); DT_OPT_OK or why not. */
dt_opterr dtc_opt_set(struct dtc *d, const char *name, const char *val);
/*
 * dtc_opt_x: the same for the command line: name may be "name=value" (val
 * NULL); on error prints "dtrace: failed to set FLAG ...: reason" and
 * returns false.
 */
bool dtc_opt_x(struct dtc *d, const char *flag, const char *name, const char *val);

/* dtc_args.c: the command line */
/* dtc_parse_args: flags and operands into d; -1 to go on, else an exit status. */
int dtc_parse_args(struct dtc *d, int argc, char **argv);
int dtc_usage(void);                     /* prints DTrace's usage message; returns 2 */
int dtc_gen(struct dtc *d);              /* -h: the header (dtc_gen.c); -G: refused; 0 or 1 */

/*
 * Where standard output goes (dtc_ofile.c), the consumer's thread:
 *   dtc_ofile_open       -o's file made the output: -1 to go on, or 1 (message printed)
 *   dtc_ofile_freopen    freopen(path): output to path from now on ("": back)
 *   dtc_ofile_system_out the standard output system()'s command gets
 *   dtc_ofile_close      output back to where it was, files closed: 0, or 1
 *                        after a failed write (message printed)
 */
int dtc_ofile_open(struct dtc *d);
void dtc_ofile_freopen(struct dtc *d, const char *path);
struct file *dtc_ofile_system_out(struct dtc *d);
int dtc_ofile_close(struct dtc *d);

/*
 * dtc_cpp.c: -C.  dtc_cpp_add records a -D ('D', "name[=value]"), -U
 * ('U') or -I ('I') argument (kept, not copied, for -I); false if there
 * are too many.  dtc_cpp_desc replaces dd's source by its preprocessed
 * text, numbered from line_base; -1, or the exit status after printing
 * the preprocessor's and DTrace's messages.
 */
bool dtc_cpp_add(struct dtc *d, char kind, const char *arg);
int dtc_cpp_desc(struct dtc *d, struct dtc_desc *dd, uint32_t line_base);

/* dtc_desc.c: -n/-P/-m/-f/-i arguments into D source */
/*
 * dtc_desc_source: the D text of a probe-description argument: each
 * description filled out to four fields as its flag says, ids replaced by
 * their probe's name, " {}" added if there is no action.  kmalloc'ed into
 * dd->dd_src; -1, or an exit status after printing DTrace's error.
 */
int dtc_desc_source(struct dtc_desc *dd);

/*
 * dtc_lib.c: the D library, every NAME.d file directly in libdir (NULL: the
 * built-in usr/lib/dtrace) in name order; *libs is kmalloc'd (NULL if none).
 * Returns how many.  The texts are the file table's (never freed).
 */
uint32_t dtc_lib_collect(const struct dtc *d, dt_libsrc **libs);


/* dtc_setopt.c: setopt() of the record of enabled probe epid (consumer context) */
void dtc_setopt(struct dtc *d, const dt_action *a, uint32_t epid);
/* dtc_ctf.c: the kernel's types, symbols and probe argument types for the compiler. */
void dtc_ctf_opts(dt_opts *o);

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
struct dtc_proc *dtc_proc_create(const char *line); /* held until started; NULL: out of memory */
void dtc_proc_start(struct dtc_proc *p);            /* tracing started: let it run */
uint64_t dtc_proc_id(const struct dtc_proc *p);     /* its id: $target */
bool dtc_proc_done(const struct dtc_proc *p);       /* it ended by itself */
int dtc_proc_release(struct dtc_proc *p);           /* kill if running, reap, free; its status */
void dtc_proc_notice(const struct dtc_proc *p, bool quiet);  /* "dtrace: pid N has exited" if it did */
uint64_t dtc_proc_image(struct dtc_proc *p);        /* its program's image (its last if gone), or 0 */
uint64_t dtc_uimage(struct dtc *d);                 /* the image of %A's user addresses, or 0 */
/* dtc_proc_grab: -p's running process (never killed: let go at the end); NULL if there is none. */
struct dtc_proc *dtc_proc_grab(int pid);

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
 * buffers really have into d->dc_ov.
 */
void dtc_report_sizes(struct dtc *d);
void dtc_print_sym(uint64_t pc, bool with_offset, char *buf, size_t size);
/* dtc_print_stack: stack()'s frames, one a line, indented by the stackindent option. */
void dtc_print_stack(struct dtc *d, const uint64_t *pcs, uint32_t n);
/* dtc_ustack.c: ustack()'s records (the image word, then n - 1 frames) and user addresses. */
void dtc_print_ustack(struct dtc *d, const uint64_t *rec, uint32_t n);
/* dtc_ustack_frames: give every ustack() of prog without a count the ustackframes option's. */
void dtc_ustack_frames(dt_prog *prog, uint32_t frames);
void dtc_print_ustack_fmt(const uint64_t *rec, uint32_t n, int indent, const char *fmt);
void dtc_usym(uint64_t image, uint64_t pc, bool with_offset, char *buf, size_t size);
/* dtc_uaddr_format: a [pc, image] of key kind DT_KEY_USYM/UADDR/UMOD as DTrace prints it. */
void dtc_uaddr_format(int keykind, uint64_t pc, uint64_t image, char *buf, size_t size);
/* dtc_uaddr_normal: the pc such a key merges under (its function's start, 0 for umod). */
uint64_t dtc_uaddr_normal(int keykind, uint64_t pc, uint64_t image);
/* dtc_uaddr_value: *v (an integer) is %A's user address: its name into buf, from the -c/-p image. */
struct dtc_value;
void dtc_uaddr_value(struct dtc *d, struct dtc_value *v, char *buf, size_t size);
/*
 * dtc_sym_normal: what an aggregation key of func(pc)/sym(pc) (module
 * false) or mod(pc) (true) holds once normalized, as DTrace does before
 * merging: the start of pc's symbol, or of its module; pc itself if it is
 * in no symbol.  Thread context.
 */
uint64_t dtc_sym_normal(uint64_t pc, bool module);
/*
 * dtc_print_text: bytes as libdtrace prints a record it knows only by its
 * size (an aggregation's string key): "  %-50s" if they are printable
 * text (isprint, isspace, \a or \b) up to a NUL followed by NULs only, or
 * printable to the end; otherwise dumped by dtc_print_bytes.  An empty
 * string is dumped too.
 */
void dtc_print_text(const uint8_t *p, uint32_t n, int width);
/* dtc_is_text: would DTrace print these n bytes as a string (dtc_print_text's test)? */
bool dtc_is_text(const uint8_t *p, uint32_t n);
void dtc_print_bytes(const uint8_t *p, uint64_t n);
/* dtc_tracemem_size: the bytes of a tracemem() record to show (its dsize when in 0..size). */
uint64_t dtc_tracemem_size(const dt_action *a, const uint8_t *data);
/* dtc_print_int: an integer of size bytes as trace() prints it (not quiet: as keys print too). */
void dtc_print_int(int64_t v, uint32_t size, bool quiet);
const dt_conv *dtc_fmt_next(const dt_fmtdesc *fd, const char **t, uint32_t *ci);

/*
 * dtc_print_stack_fmt: a stack as printf's %k prints it: a newline, then
 * each frame indented by indent spaces, formatted with fmt (a "%...s").
 */
void dtc_print_stack_fmt(const uint64_t *pcs, uint32_t n, int indent, const char *fmt);

/* dtc_format.c: one conversion's value, and printing it */
enum dtc_valkind { DTC_VAL_INT = 1, DTC_VAL_STR, DTC_VAL_STACK };
struct dtc_value {
	enum dtc_valkind dv_kind;
	int64_t dv_int;                  /* DTC_VAL_INT: the raw 64 bits */
	uint32_t dv_size;                /* its type's size (1, 2, 4, 8) */
	bool dv_signed;                  /* its type is signed */
	const char *dv_str;              /* DTC_VAL_STR */
	const uint64_t *dv_pcs;          /* DTC_VAL_STACK: frames */
	uint32_t dv_npcs;
	const uint8_t *dv_raw;           /* the recorded bytes (dv_size of them): %e %f %g */
	bool dv_user;                    /* DTC_VAL_STACK: a ustack() record (dtc_ustack.c) */
	bool dv_uaddr;                   /* %A: a user address, named in dv_str (dtc_uaddr_value) */
};
/*
 * dtc_fmt_spec: the C format of conversion cv with its width and
 * precision resolved (a negative width left-justifies), then len and
 * conv, e.g. "%-8lld".
 */
void dtc_fmt_spec(const dt_conv *cv, int width, int prec, const char *len, char conv,
                  char *out, size_t size);
/* dtc_conv_print: print v with conversion cv (not %@: the caller prints aggregations). */
void dtc_conv_print(const dt_conv *cv, const struct dtc_value *v, int width, int prec);

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
/*
 * dtc_agg_print_percpu: with aggpercpu, each CPU's share of e's value, a
 * line "    [CPU n]" and the value each (histograms whole, no blank after).
 */
void dtc_agg_print_percpu(struct dtc *d, const struct dtc_aggent *e);
void dtc_agg_print_hist(struct dtc *d, const struct dtc_aggent *e, bool blank_after);
int dtc_agg_snapshot(struct dtc *d);
void dtc_agg_print_all(struct dtc *d);
void dtc_printa(struct dtc *d, const dt_action *a);
void dtc_agg_apply(struct dtc *d, const dt_action *a, int64_t value);
void dtc_agg_free(struct dtc *d);

/* dtc_agg_sorted: aggid's merged entries (struct dtc_aggent *), in print order; caller frees. */
void **dtc_agg_sorted(struct dtc *d, uint32_t aggid, uint32_t *n);
/* dtc_agg_bucket_value: the value column of histogram bucket i (its lower bound). */
int64_t dtc_agg_bucket_value(const dt_aggdesc *ag, uint32_t i);

/* dtc_print.c: a stack frame's name as stack() prints it (kernel`func+0x1c) */
void dtc_frame_name(uint64_t pc, char *buf, size_t size);
/*
 * dtc_action_text: what action a prints for its recorded data, as if
 * quiet, into buf (size bytes, cut, always terminated); the length.  Thread
 * context.
 */
size_t dtc_action_text(struct dtc *d, const dt_action *a, const uint8_t *data, char *buf,
                       size_t size);

/*
 * dtc_json.c: -x oformat=json.  Each function writes one JSON object and a
 * newline on standard output (docs/output.md gives the shapes).  Thread
 * context.
 */
void dtc_json_record(struct dtc *d, int cpu, const dtrace_rechdr_t *h);
void dtc_json_agg(struct dtc *d, uint32_t aggid);        /* one line per entry */
void dtc_json_printa(struct dtc *d, const dt_action *a);
void dtc_json_error(struct dtc *d, const dtrace_errrec_t *r, const dtrace_epinfo_t *ei,
                    const char *fault, const char *where);
void dtc_json_drop(struct dtc *d, const char *tag, uint64_t n, const char *what,
                   const char *suffix);

/* output */
void dtc_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void dtc_outn(const char *s, size_t n);
void dtc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * dtc_float_format: format the floating-point value in bytes (len 4: float,
 * 8: double, 16: long double in the machine's format, ARCH_LDOUBLE_FORMAT)
 * by the C conversion spec (e.g. "%-10.3e"; flags, width, precision, then e
 * E f g or G) into buf (size bytes, always terminated).  Returns the
 * length.  Integers only: no FPU.  Thread context.  dtc_float_format_as:
 * the same with a long double in format ldfmt (ARCH_LDOUBLE_X87 or
 * ARCH_LDOUBLE_QUAD), for the unit tests of both.
 */
/*
 * dtc_print_typed: print()'s output: the value recorded at data (as trace()
 * records it: dp is its DIFO) printed by its D type t (dtc_typeprint.c).
 */
void dtc_print_typed(const dt_type *t, const dif_difo_t *dp, const uint8_t *data);
/*
 * dtc_scalar_bytes: at p, v's low size bytes (1, 2, 4 or 8) as this machine
 * lays out an integer of that size: what a scalar's 64-bit record holds as
 * an object of its own type (on a big-endian machine, the record's last
 * bytes).  dtc_typeprint.c; any context.
 */
void dtc_scalar_bytes(uint8_t *p, uint64_t v, uint32_t size);

size_t dtc_float_format(char *buf, size_t size, const char *spec, const uint8_t *bytes,
                        uint32_t len);
size_t dtc_float_format_as(char *buf, size_t size, const char *spec, const uint8_t *bytes,
                           uint32_t len, int ldfmt);
/*
 * dtc_float_of_int: into bytes, the float (len 4) or double (8) whose bits
 * are the low len * 8 bits of v, as dtc_float_format reads them.  A D float
 * travels in a 64-bit register and record: its bits are the value's low
 * half on either byte order, but the record's first 4 bytes only on a
 * little-endian machine.  Any context.
 */
void dtc_float_of_int(uint64_t v, uint32_t len, uint8_t *bytes);

#endif
