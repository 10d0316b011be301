/*
 * dlang/dt_prog.h: the D compiler's public face: the compiled program object.
 *
 * dt_compile() turns D source text into a dt_prog: probe descriptions,
 * clauses with a predicate DIFO and a list of actions (each with DIFOs and
 * a record description), aggregation descriptions, printf format
 * descriptions and options from #pragma.  The tracing framework (trace/)
 * and the consumer (console/dtrace/) read that object; this header is all
 * of the compiler the framework may include (tools/check_deps.sh).  The
 * framework must run dif_validate() on every DIFO it takes from the object:
 * the compiler is trusted to produce good DIF, the framework is not allowed
 * to rely on that.
 *
 * A D type (dt_type, in print()'s action) is opaque here; the consumer,
 * which prints typed values, reads it through dlang/dt.h.
 *
 * Context: dt_compile is freestanding and reentrant (see dlang/dt.h); the
 * object it returns lives in the caller's arena and is read-only after.
 *
 * Tests: tests/unit/dlang_compile_test.c, tests/dlang/ (exact DIF),
 * tests/d/ (every program through the framework).
 */
#ifndef DLANG_DT_PROG_H
#define DLANG_DT_PROG_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#include "dif/dif.h"

typedef struct dt_type dt_type;

/* Bounds the program object keeps (and the framework checks again). */
#define DT_MAXARGS	32	/* function arguments */
#define DT_MAXKEYS	8	/* tuple keys */


/* Field sizes of a probe description, including the terminating NUL. */
#define DT_PROVNAMELEN  64
#define DT_MODNAMELEN   64
#define DT_FUNCNAMELEN  128
#define DT_NAMELEN      64

/*
 * A probe description: four glob patterns (may contain * ? [...] and \).
 * An empty field matches anything.  Short forms are right-aligned, so
 * "BEGIN" is ":::BEGIN" and "foo:entry" is "::foo:entry".
 */
typedef struct dt_probedesc {
	char pd_prov[DT_PROVNAMELEN];
	char pd_mod[DT_MODNAMELEN];
	char pd_func[DT_FUNCNAMELEN];
	char pd_name[DT_NAMELEN];
	uint32_t pd_line;		/* source line, for messages */
} dt_probedesc;

/*
 * DIF objects are DIF's own dif_difo_t (dif/dif.h): instructions, integer
 * and string tables, variable table (names are offsets into the DIFO's own
 * string table) and the return type.  All arrays live in the arena.
 */

/* Action kinds: what one action of a clause records or does. */
typedef enum dt_actkind {
	DT_ACT_EXPR = 1,	/* evaluate for side effects; records nothing */
	DT_ACT_TRACE,		/* trace(x): record the value (string: strsize) */
	DT_ACT_PRINTF,		/* printf(fmt, args...): ac_fmt, ac_args */
	DT_ACT_PRINTA,		/* printa([fmt,] @a...): ac_fmt (-1: none), */
				/* ac_aggs[] */
	DT_ACT_EXIT,		/* exit(status): ac_args[0] */
	DT_ACT_STACK,		/* stack([n]): ac_arg = frames (0 = default) */
	DT_ACT_USTACK,		/* ustack(): the user stack (the consumer names its frames) */
	DT_ACT_TRACEMEM,	/* tracemem(addr, size[, dsize]): ac_args[0] = */
				/* addr, ac_args[1] = dsize, ac_arg = size */
	DT_ACT_SYM,		/* sym(pc) / func(pc): record pc, print as sym */
	DT_ACT_MOD,		/* mod(pc): record pc, print as module */
	DT_ACT_SPECULATE,	/* speculate(id) */
	DT_ACT_COMMIT,		/* commit(id) */
	DT_ACT_DISCARD,		/* discard(id) */
	DT_ACT_CLEAR,		/* clear(@a): ac_aggs[0] */
	DT_ACT_TRUNC,		/* trunc(@a[, n]): ac_aggs[0], ac_args[0] */
				/* (absent: truncate all) */
	DT_ACT_NORMALIZE,	/* normalize(@a, n): ac_aggs[0], ac_args[0] */
	DT_ACT_DENORMALIZE,	/* denormalize(@a): ac_aggs[0] */
	DT_ACT_SETOPT,		/* setopt(name[, value]): ac_args strings */
	DT_ACT_AGG,		/* @a[keys] = f(args): ac_aggs[0]; ac_args = */
				/* keys then f's arguments */
	DT_ACT_PANIC,		/* destructive: panic() */
	DT_ACT_BREAKPOINT,	/* destructive: breakpoint() */
	DT_ACT_CHILL,		/* destructive: chill(ns): ac_args[0] */
	DT_ACT_RAISE,		/* destructive: raise(sig): ac_args[0] */
	DT_ACT_STOP,		/* destructive: stop() */
	DT_ACT_SYSTEM,		/* destructive: system(fmt, ...): like printf */
	DT_ACT_FREOPEN,		/* destructive: freopen(fmt, ...): like printf; */
				/* the consumer's output goes to that file */
	DT_ACT_FTRUNCATE,	/* ftruncate(): truncate the consumer's output */
				/* file (records 8 bytes so it reaches it) */
	DT_ACT_PRINT,		/* print(x): recorded as trace(x); ac_type */
				/* says how the consumer prints it */
	DT_ACT_USYM,		/* usym(pc) / ufunc(pc): record pc and the */
				/* process's image, print as prog`func */
	DT_ACT_UADDR,		/* uaddr(pc): likewise, print as prog`func+0x1c */
	DT_ACT_UMOD,		/* umod(pc): likewise, print as prog */
} dt_actkind;

/* An action of a clause, run in order after the predicate is true. */
typedef struct dt_action {
	dt_actkind ac_kind;
	uint32_t ac_line;		/* source line of the statement */
	dif_difo_t **ac_args;		/* DIFOs, one per value argument */
	uint32_t ac_nargs;
	int32_t ac_fmt;			/* index in dp_formats, or -1 */
	uint32_t *ac_aggs;		/* indexes in dp_aggs */
	uint32_t ac_naggs;
	uint64_t ac_arg;		/* constant argument (see dt_actkind) */
	uint32_t ac_size;		/* bytes recorded in the buffer (0 for */
					/* none); strings take strsize */
	const dt_type *ac_type;		/* DT_ACT_PRINT: the value's D type */
					/* (in the program's arena) */
} dt_action;

/*
 * A clause: where (probes), when (predicate) and what (actions).  A clause
 * written without a body ("dtrace -n BEGIN") has no actions: the framework
 * gives it DTrace's default action (record the probe).  Clauses split from
 * one D clause by if/else also have actions (the compiler never makes an
 * empty split clause).
 */
typedef struct dt_clause {
	dt_probedesc *cl_probes;
	uint32_t cl_nprobes;
	dif_difo_t *cl_pred;		/* NULL: always true */
	dt_action *cl_acts;
	uint32_t cl_nacts;
	uint32_t cl_line;
	bool cl_destructive;		/* uses a destructive action */
	bool cl_speculative;		/* contains speculate() */
} dt_clause;

/* Aggregating functions. */
typedef enum dt_aggfunc {
	DT_AGG_COUNT = 1, DT_AGG_SUM, DT_AGG_AVG, DT_AGG_MIN, DT_AGG_MAX,
	DT_AGG_STDDEV, DT_AGG_QUANTIZE, DT_AGG_LQUANTIZE, DT_AGG_LLQUANTIZE,
} dt_aggfunc;

/*
 * One key element's type.  Most keys are values computed by a DIFO: an
 * integer of kt_size bytes or a string.  A few are recorded by the
 * framework itself or printed specially:
 *   DT_KEY_STACK   @[stack(n)]: the kernel stack, kt_frames frames (0 =
 *                  the stackframes option); its DIFO slot in the
 *                  DT_ACT_AGG action is NULL
 *   DT_KEY_USTACK  @[ustack(n)]: likewise for the user stack
 *   DT_KEY_SYM     @[sym(pc)] / @[func(pc)]: the DIFO computes pc, printed
 *                  as symbol+offset
 *   DT_KEY_MOD     @[mod(pc)]: the DIFO computes pc, printed as module
 *   DT_KEY_USYM, DT_KEY_UADDR, DT_KEY_UMOD  @[ufunc(pc)], @[usym(pc)],
 *                  @[uaddr(pc)], @[umod(pc)]: the DIFO computes pc; the
 *                  framework adds the process's image (16 bytes)
 */
typedef enum dt_keykind {
	DT_KEY_VALUE = 0, DT_KEY_STACK, DT_KEY_USTACK, DT_KEY_SYM, DT_KEY_MOD,
	DT_KEY_USYM, DT_KEY_UADDR, DT_KEY_UMOD,
} dt_keykind;

typedef struct dt_keytype {
	uint8_t kt_string;
	uint8_t kt_size;
	uint8_t kt_signed;
	uint8_t kt_kind;		/* dt_keykind */
	uint32_t kt_frames;		/* DT_KEY_STACK, DT_KEY_USTACK */
} dt_keytype;

/*
 * An aggregation @name.  Keys are the tuple in brackets.  The DT_ACT_AGG
 * action's DIFOs are the keys, then the value (none for count), then the
 * increment (weight) if quantize/lquantize/llquantize were given one.
 * lquantize: ag_params = {base, limit, step}; llquantize: {factor, low,
 * high, nsteps}.
 */
typedef struct dt_aggdesc {
	const char *ag_name;		/* without the '@'; "" for @ */
	uint32_t ag_id;			/* index in dp_aggs */
	dt_aggfunc ag_func;
	dt_keytype ag_keys[8];
	uint32_t ag_nkeys;
	int64_t ag_params[4];
	uint32_t ag_nparams;
} dt_aggdesc;

/* printf conversion kinds, as the consumer must format them. */
typedef enum dt_convkind {
	DT_CONV_SINT = 1,	/* %d %i (with length modifiers) */
	DT_CONV_UINT,		/* %u %o %x %X %c */
	DT_CONV_STR,		/* %s */
	DT_CONV_PTR,		/* %p */
	DT_CONV_AGG,		/* %@d etc: the aggregation value (printa) */
	DT_CONV_SYM,		/* %a %A: symbol+offset */
	DT_CONV_PCT,		/* %%: no argument */
	DT_CONV_Y,		/* %Y: walltimestamp as a date */
	DT_CONV_K,		/* %k: a stack */
	DT_CONV_T,		/* %T: walltimestamp as an RFC 822 date */
	DT_CONV_ESTR,		/* %S: a string with C escapes */
	DT_CONV_ECHR,		/* %C: a character with C escapes */
	DT_CONV_FLT,		/* %e %E %f %g %G: float, double, long double */
} dt_convkind;

/* Flags of a conversion (cv_flags), as DTrace's format parser sets them. */
#define DT_PF_ALT	0x001	/* # */
#define DT_PF_ZPAD	0x002	/* 0 (cleared by a later -) */
#define DT_PF_LEFT	0x004	/* - (cleared by a later 0) */
#define DT_PF_SPOS	0x008	/* + */
#define DT_PF_GROUP	0x010	/* ' */
#define DT_PF_SPACE	0x020	/* space */
#define DT_PF_AGG	0x040	/* @: the aggregation's value */
#define DT_PF_DYNW	0x080	/* *: width from an argument */
#define DT_PF_DYNP	0x100	/* .*: precision from an argument */

typedef struct dt_conv {
	dt_convkind cv_kind;
	char cv_spec[24];		/* the conversion text, e.g. "%-8lld" */
	uint8_t cv_star_width;		/* width from an argument (*) */
	uint8_t cv_star_prec;		/* precision from an argument (.*) */
	uint16_t cv_flags;		/* DT_PF_* */
	uint16_t cv_textlen;		/* bytes of text from '%' to the name's end */
	int32_t cv_width;		/* 0: none (%? is 16) */
	int32_t cv_prec;		/* 0: none */
	char cv_name[8];		/* the conversion's name: "d", "llx", "@" */
	char cv_ofmt;			/* the C conversion letter it prints with */
} dt_conv;

typedef struct dt_fmtdesc {
	const char *fd_text;		/* the format string, escapes expanded */
	dt_conv *fd_convs;
	uint32_t fd_nconvs;
	bool fd_printa;			/* a printa format */
} dt_fmtdesc;

typedef struct dt_option {
	const char *op_name;		/* e.g. "bufsize" */
	const char *op_value;		/* text after '=', or "" */
	uint32_t op_line;
} dt_option;

/*
 * Global and thread-local variables the program uses (clause-locals are
 * per DIFO and not listed).  The framework sizes its dynamic variable
 * space from these.
 */
typedef struct dt_vardesc {
	const char *vd_name;
	uint32_t vd_id;			/* DIF variable id (>= DIF_VAR_USER_BASE) */
	uint8_t vd_scope;		/* DIF_SCOPE_GLOBAL or DIF_SCOPE_THREAD */
	uint8_t vd_kind;		/* DIF_VKIND_SCALAR or DIF_VKIND_ARRAY */
	uint8_t vd_string;
	uint32_t vd_size;
	uint32_t vd_nkeys;
	uint32_t vd_nstrkeys;		/* how many of the keys are by reference:
				   strings, structs, unions (strsize bytes
				   of key room each) */
} dt_vardesc;

/*
 * A provider definition (`provider p { probe q(int, char *); };`, dlang/
 * dt_provider.c): names for dtrace -h's header; nothing is enabled.
 */
typedef struct dt_probedef {
	const char *pr_name;		/* as written: "order__start" */
	uint32_t pr_nargs;
	const char *pr_args[6];		/* each argument's D type, as text */
	struct dt_probedef *pr_next;
} dt_probedef;

typedef struct dt_provdef {
	const char *pv_name;
	dt_probedef *pv_probes;		/* in the order declared */
	uint32_t pv_nprobes;
	struct dt_provdef *pv_next;
} dt_provdef;

/* The compiled program: everything the framework needs to enable it. */
typedef struct dt_prog {
	dt_clause *dp_clauses;
	uint32_t dp_nclauses;
	dt_aggdesc *dp_aggs;
	uint32_t dp_naggs;
	dt_fmtdesc *dp_formats;
	uint32_t dp_nformats;
	dt_option *dp_options;
	uint32_t dp_noptions;
	dt_vardesc *dp_vars;
	uint32_t dp_nvars;
	bool dp_destructive;		/* some clause is destructive */
	uint32_t dp_strsize;		/* string size in bytes (option strsize) */
	size_t dp_arena_used;		/* bytes of the arena the compile used */
	dt_provdef *dp_providers;	/* provider definitions (dtrace -h), or NULL */
} dt_prog;

/* Compile options (the consumer's command line). */
typedef struct dt_opts {
	bool o_destructive;		/* -w: the consumer's (enabling checks it; the compiler never refuses a destructive action) */
	bool o_zdefs;			/* -Z: probe descriptions may match none */
	const char *const *o_argv;	/* macro arguments $0..$n */
	int o_argc;
	int64_t o_target;		/* $target / $pid; < 0: undefined */
	/*
	 * Probe matcher: returns how many probes match pd, or -1 if it
	 * cannot tell (then no D_PDESC_ZERO check).  May be NULL.
	 */
	int (*o_match)(void *arg, const dt_probedesc *pd);
	void *o_match_arg;
	uint32_t o_strsize;		/* default 256 */
	/*
	 * Kernel symbol lookup for `name: returns 0 and the symbol's address
	 * and size (a data object of 1, 2, 4 or 8 bytes is read as an
	 * unsigned integer of that size), or -1.  NULL: `name is rejected
	 * (D_SYM_NOTYPES).  Called at compile time, not in probe context.
	 */
	int (*o_symlookup)(void *arg, const char *name, uint64_t *addr,
	    uint64_t *size);
	void *o_symlookup_arg;
	bool o_defargs;			/* defaultargs: missing $n are 0 or "" */
	bool o_argref;			/* argref: unused arguments allowed */
	/*
	 * The D version the program is bound to (-x version=, as
	 * DT_VERSION_NUMBER makes it): functions introduced after it are not
	 * defined.  0: the newest.  "#pragma D option version" may lower it.
	 */
	uint32_t o_version;
	/* the consumer's $pid, $ppid, $uid, $gid ($euid, $egid) and $cwd */
	int64_t o_pid, o_ppid, o_uid, o_gid;
	const char *o_cwd;		/* NULL: "/" */
	/*
	 * The D library (DTrace's /usr/lib/dtrace): D source files of
	 * declarations, inlines and translators compiled before the program,
	 * in this order (see dt_lib.c).  NULL: none.
	 */
	const struct dt_libsrc *o_libs;
	uint32_t o_nlibs;
	/*
	 * The kernel's types (kernel/ctf.h; dlang/dt_ctf.c).  NULL: none, and
	 * kernel types, typed `sym and typed args[] are unknown.
	 */
	const struct ctf_dict *o_ctf;
	/*
	 * Probe argument types: writes argument argno's type, as C names it
	 * ("struct thread *"), of the probes pd matches into native and
	 * returns 0; for an argument D sees translated, also that type into
	 * xlate (else "") and the native argument it comes from into *map.
	 * -1 if they have no types, DT_ARGTYPE_UNSTABLE if they type it
	 * differently, DT_ARGTYPE_NOARG if they type their arguments and have
	 * no argument argno.  Buffers of DT_ARGTYPELEN.  May be NULL.
	 * Compile time, not probe context.
	 */
	int (*o_argtype)(void *arg, const dt_probedesc *pd, int argno,
	    char *native, char *xlate, int *map);
	void *o_argtype_arg;
} dt_opts;

#define DT_ARGTYPELEN	64	/* an argument type's name, with its NUL */
#define DT_ARGTYPE_UNSTABLE	(-2)
#define DT_ARGTYPE_NOARG	(-3)

/* One file of the D library: its name (for messages) and its text. */
typedef struct dt_libsrc {
	const char *ls_name;		/* "/usr/lib/dtrace/errno.d" */
	const char *ls_src;		/* need not be NUL-terminated */
	size_t ls_len;
} dt_libsrc;

/* A compile error, as DTrace reports it. */
typedef struct dt_error {
	const char *de_tag;		/* "D_SYNTAX", ... (NULL: no error) */
	uint32_t de_line;
	uint32_t de_col;
	char de_msg[512];
	const char *de_file;		/* a library file's name; NULL: the */
					/* program (points into the options) */
} dt_error;

/*
 * dt_compile: compile D source text into a program.
 *   src, len   the source (need not be NUL-terminated)
 *   opts       options (may be NULL for defaults)
 *   arena, sz  memory for the whole compilation and for the result; the
 *              program points into it; 1-4 MiB is plenty for most scripts
 *   progp      set to the program on success
 *   err        set on failure (tag, line, column, message)
 * Returns 0 on success, -1 on error.  Context: any (no locks, no sleeping,
 * no globals); uses about 8 KiB of stack plus recursion proportional to
 * expression nesting (bounded by DT_MAXDEPTH).
 */
int dt_compile(const char *src, size_t len, const dt_opts *opts,
    void *arena, size_t sz, dt_prog **progp, dt_error *err);

/*
 * dt_header_write (dt_provider.c): the C header dtrace -h writes for p's
 * provider definitions, NUL-terminated in buf (cut at len - 1 bytes);
 * guard names its include guard (the output file's name).  Returns the
 * header's length in bytes (more than len - 1: buf was too small).  Pure.
 */
size_t dt_header_write(const dt_prog *p, const char *guard, char *buf, size_t len);

/*
 * dt_dof_write (dt_dof.c): p as DOF (DTrace Object Format; dif/dof.h,
 * docs/dof.md), the byte string dtrace_enable_dof takes.  Writes it into
 * buf only if it fits in len bytes; returns its length either way (call
 * with buf NULL to size the buffer).  Pure; allocates nothing.
 */
size_t dt_dof_write(const dt_prog *p, void *buf, size_t len);

/*
 * dt_dof_actkind: an action's dofa_kind in DOF: DTrace's DTRACEACT_* for
 * the kinds DTrace has (trace(), print() and expressions are DIFEXPR, an
 * aggregation DTRACEACT_AGGREGATION + its function), DTRACEACT_SONDE + kind
 * for Sonde's own.  The writer stores it and the kernel checks it (inline:
 * the framework may not link the compiler).
 */
static inline uint32_t dt_dof_actkind(uint32_t kind, uint32_t aggfunc)
{
	static const uint16_t k[] = {
		[DT_ACT_EXPR] = 1, [DT_ACT_TRACE] = 1, [DT_ACT_PRINT] = 1,        /* DIFEXPR */
		[DT_ACT_EXIT] = 2, [DT_ACT_PRINTF] = 3, [DT_ACT_PRINTA] = 4, [DT_ACT_TRACEMEM] = 6,
		[DT_ACT_USTACK] = 0x101, [DT_ACT_USYM] = 0x103, [DT_ACT_UMOD] = 0x104,
		[DT_ACT_UADDR] = 0x105, [DT_ACT_STOP] = 0x201, [DT_ACT_RAISE] = 0x202,
		[DT_ACT_SYSTEM] = 0x203, [DT_ACT_FREOPEN] = 0x204, [DT_ACT_STACK] = 0x401,
		[DT_ACT_SYM] = 0x402, [DT_ACT_MOD] = 0x403, [DT_ACT_BREAKPOINT] = 0x501,
		[DT_ACT_PANIC] = 0x502, [DT_ACT_CHILL] = 0x503, [DT_ACT_SPECULATE] = 0x601,
		[DT_ACT_COMMIT] = 0x602, [DT_ACT_DISCARD] = 0x603,
	};

	/* DTRACEAGG_*: count 1, min 2, max 3, avg 4, sum 5, stddev 6, quantize 7, ... */
	static const uint8_t ag[] = {
		[DT_AGG_COUNT] = 1, [DT_AGG_MIN] = 2, [DT_AGG_MAX] = 3, [DT_AGG_AVG] = 4,
		[DT_AGG_SUM] = 5, [DT_AGG_STDDEV] = 6, [DT_AGG_QUANTIZE] = 7,
		[DT_AGG_LQUANTIZE] = 8, [DT_AGG_LLQUANTIZE] = 9,
	};

	if (kind == DT_ACT_AGG)                         /* DTRACEACT_AGGREGATION + DTRACEAGG_* */
		return 0x700 + (aggfunc < sizeof(ag) ? ag[aggfunc] : 0);
	if (kind < sizeof(k) / sizeof(k[0]) && k[kind] != 0)
		return k[kind];
	return 0x5300 + kind;                           /* DTRACEACT_SONDE */
}

/* Format an error "line N: MSG" (errtags: "[TAG] line N: MSG") into buf. */
size_t dt_error_format(const dt_error *err, bool errtags, char *buf,
    size_t len);

#endif
