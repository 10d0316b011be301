/*
 * dlang/dt.h: the D compiler's one shared header, sectioned by file.
 *
 * The D compiler turns D source text into a compiled program object
 * (dt_prog): probe descriptions, clauses with a predicate DIFO and a list of
 * actions (each with DIFOs and a record description), aggregation
 * descriptions, printf format descriptions and options from #pragma.  The
 * tracing framework consumes that object, in the kernel, and must run
 * dif_validate() on every DIFO it takes from it: the compiler is trusted to
 * produce good DIF, the framework is not allowed to rely on that.
 *
 * Reading order:
 *   dt_program.c    the compile entry point, the arena, errors, #pragma,
 *                   the program object's builders
 *   dt_lex.c        characters -> tokens (and probe-description tokens)
 *   dt_parse.c      tokens -> syntax tree, one function per grammar rule
 *   dt_parse_decl.c the declaration productions (types, struct, inline...)
 *   dt_decl.c       types, identifiers, declarations
 *   dt_sema.c       expressions: types, lvalues, constant folding, checks
 *   dt_sema_ref.c   names and references: variables, members, casts...
 *   dt_func.c       the function table; calls; argument checks
 *   dt_action.c     clauses, statements, if/else, actions, ordering rules
 *   dt_agg.c        aggregations
 *   dt_printf.c     printf/printa format parsing and conversion checking
 *   dt_proto.c      DTrace's prototypes of D's functions, their messages
 *   dt_cg.c         syntax tree -> DIF, with a small register allocator
 *   dt_cpp.c        dtrace -C's preprocessor, run before all of this by the
 *                   consumer (its own header, dt_cpp.h; dt_cpp_expand.c)
 *
 * Context: everything here is freestanding and reentrant.  There are no
 * mutable globals; all state lives in one dt_ctx, all memory comes from an
 * arena the caller supplies, and errors unwind (__builtin_longjmp) to
 * dt_compile(), which returns the error in the context.  The compiler never
 * reads past the end of its input (the input need not be NUL-terminated).
 */
#ifndef DLANG_DT_H
#define DLANG_DT_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>

#include "dif/dif.h"

typedef struct dt_ctx dt_ctx;
typedef struct dt_node dt_node;
typedef struct dt_type dt_type;
typedef struct dt_ident dt_ident;

/* ===================================================================== */
/* dt_program.c: the compiled program object (the framework's interface) */
/* ===================================================================== */

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
	DT_ACT_USTACK,		/* ustack(): not yet implemented */
	DT_ACT_TRACEMEM,	/* tracemem(addr, size): ac_args[0] = addr, */
				/* ac_arg = size */
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
	uint32_t vd_nstrkeys;		/* how many of the keys are strings */
} dt_vardesc;

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
} dt_prog;

/* Compile options (the consumer's command line). */
typedef struct dt_opts {
	bool o_destructive;		/* -w */
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

/* Format an error "line N: MSG" (errtags: "[TAG] line N: MSG") into buf. */
size_t dt_error_format(const dt_error *err, bool errtags, char *buf,
    size_t len);

/* ===================================================================== */
/* Internal interfaces                                                   */
/* ===================================================================== */

/*
 * Nesting limit of expressions and statements (parser and tree depth).
 * Stack use grows by a few hundred bytes per level; see docs/d-language.md.
 */
#define DT_MAXDEPTH	32
#define DT_NOINLINE	__attribute__((noinline))
#define DT_MAXARGS	32	/* function arguments */
#define DT_MAXKEYS	8	/* tuple keys */

/* --- dt_lex.c ---------------------------------------------------------- */

typedef enum dt_tokkind {
	DT_T_EOF = 0,
	DT_T_IDENT, DT_T_INT, DT_T_STR, DT_T_PDESC, DT_T_AGG, DT_T_SYM,
	DT_T_TYPENAME,			/* identifier naming a typedef */
	/* keywords */
	DT_T_KW_FIRST,
	DT_T_AUTO = DT_T_KW_FIRST, DT_T_BREAK, DT_T_CASE, DT_T_CHAR,
	DT_T_CONST, DT_T_CONTINUE, DT_T_COUNTER, DT_T_DEFAULT, DT_T_DO,
	DT_T_DOUBLE, DT_T_ELSE, DT_T_ENUM, DT_T_EXTERN, DT_T_FLOAT, DT_T_FOR,
	DT_T_GOTO, DT_T_IF, DT_T_IMPORT, DT_T_INLINE, DT_T_INT_KW, DT_T_LONG,
	DT_T_OFFSETOF, DT_T_PROBE, DT_T_PROVIDER, DT_T_REGISTER,
	DT_T_RESTRICT, DT_T_RETURN, DT_T_SELF, DT_T_SHORT, DT_T_SIGNED,
	DT_T_SIZEOF, DT_T_STATIC, DT_T_STRING, DT_T_STRINGOF, DT_T_STRUCT,
	DT_T_SWITCH, DT_T_THIS, DT_T_TRANSLATOR, DT_T_TYPEDEF, DT_T_UNION,
	DT_T_UNSIGNED, DT_T_USERLAND, DT_T_VOID, DT_T_VOLATILE, DT_T_WHILE,
	DT_T_XLATE,
	DT_T_KW_LAST = DT_T_XLATE,
	/* punctuators */
	DT_T_PLUS, DT_T_MINUS, DT_T_STAR, DT_T_SLASH, DT_T_MOD, DT_T_BAND,
	DT_T_BOR, DT_T_XOR, DT_T_BNEG, DT_T_LNEG, DT_T_LT, DT_T_GT, DT_T_LE,
	DT_T_GE, DT_T_EQ, DT_T_NE, DT_T_LSH, DT_T_RSH, DT_T_LAND, DT_T_LOR,
	DT_T_LXOR, DT_T_QUESTION, DT_T_COLON, DT_T_ASGN, DT_T_ADD_EQ,
	DT_T_SUB_EQ, DT_T_MUL_EQ, DT_T_DIV_EQ, DT_T_MOD_EQ, DT_T_AND_EQ,
	DT_T_OR_EQ, DT_T_XOR_EQ, DT_T_LSH_EQ, DT_T_RSH_EQ, DT_T_INC,
	DT_T_DEC, DT_T_ARROW, DT_T_DOT, DT_T_COMMA, DT_T_SEMI, DT_T_LPAR,
	DT_T_RPAR, DT_T_LBRAC, DT_T_RBRAC, DT_T_LBRACE, DT_T_RBRACE,
	DT_T_ELLIPSIS,
	DT_T_NTOK
} dt_tokkind;

typedef struct dt_tok {
	dt_tokkind t_kind;
	uint32_t t_line, t_col;
	uint32_t t_off, t_len;		/* source span */
	const char *t_str;		/* identifier/string text (arena, NUL) */
	uint32_t t_slen;		/* string length (may contain NULs? no) */
	uint64_t t_ival;		/* integer value */
	uint8_t t_isize;		/* suffix/size class: 4 int, 8 long */
	uint8_t t_iunsigned;		/* unsigned type */
	uint8_t t_fromchar;		/* a character constant */
} dt_tok;

/* Lexer modes: what the next token may be at top level. */
typedef enum dt_lexmode {
	DT_LEX_EXPR,		/* ordinary C-like tokens */
	DT_LEX_TOP,		/* start of a program item: pdesc or decl */
	DT_LEX_PDESC,		/* after ',' in a probe list: a pdesc */
} dt_lexmode;

void dt_lex_init(dt_ctx *ctx);
int dt_lex_peek_char(dt_ctx *ctx);
void dt_lex_next(dt_ctx *ctx, dt_lexmode mode);
const char *dt_tok_name(dt_tokkind k);
dt_tokkind dt_tok_compound_op(dt_tokkind k);	/* DT_T_ADD_EQ -> DT_T_PLUS */
void dt_tok_text(dt_ctx *ctx, const dt_tok *t, char *buf, size_t len);

/* --- dt_lib.c ---------------------------------------------------------- */

void dt_lib_load(dt_ctx *ctx);		/* compile the options' library */
void dt_lib_depends(dt_ctx *ctx, const char *name, uint32_t line);

/* --- dt_parse.c -------------------------------------------------------- */

typedef enum dt_nodekind {
	DT_N_INT = 1,		/* integer constant: n_ival, n_type */
	DT_N_STR,		/* string constant: n_str, n_slen */
	DT_N_VAR,		/* identifier: n_str (resolved to n_ident) */
	DT_N_SELF,		/* self->name */
	DT_N_THIS,		/* this->name */
	DT_N_SYM,		/* `symbol */
	DT_N_OP1,		/* unary: n_op (token), n_a; postfix: n_post */
	DT_N_OP2,		/* binary/assignment: n_op, n_a, n_b */
	DT_N_OP3,		/* ?: n_a ? n_b : n_c */
	DT_N_CALL,		/* n_str(n_args) */
	DT_N_INDEX,		/* n_a[n_args]: associative array or args[] */
	DT_N_AGG,		/* @name[n_args] */
	DT_N_MEMBER,		/* n_a . n_str / n_a -> n_str (n_op) */
	DT_N_CAST,		/* (n_ctype) n_a */
	DT_N_SIZEOF,		/* sizeof n_a / sizeof (n_ctype) */
	DT_N_OFFSETOF,		/* offsetof(n_ctype, n_str) */
	DT_N_STRINGOF,		/* stringof n_a */
	DT_N_XLATE,		/* xlate <n_ctype> (n_a) */
	/* statements and program items */
	DT_N_EXPRSTMT,		/* n_a; */
	DT_N_AGGSTMT,		/* n_a(@..) = n_b(call) */
	DT_N_IF,		/* if (n_a) n_b else n_c */
	DT_N_BLOCK,		/* { n_args } */
	DT_N_CLAUSE,		/* n_args = pdescs, n_a = pred, n_b = block */
	DT_N_PDESC,		/* n_str: the description text */
	DT_N_DECL,		/* declaration (handled during parsing) */
	DT_N_PRAGMA,
} dt_nodekind;

#define DT_NF_LVAL	0x01	/* assignable */
#define DT_NF_CONST	0x02	/* integer constant (n_ival valid) */
#define DT_NF_COOKED	0x04	/* semantic pass done */
#define DT_NF_USERLAND	0x08
#define DT_NF_REF	0x10	/* value is by reference (string, struct) */
#define DT_NF_SUBSTORE	0x20	/* assignment into a member/element of a */
				/* struct/array D variable (root in n_c) */
#define DT_NF_MEMSTORE	0x40	/* assignment or ++/-- through a pointer: */
				/* *p, p->m, p[i] (scratch, checked at */
				/* run time) */

struct dt_node {
	dt_nodekind n_kind;
	dt_tokkind n_op;
	uint32_t n_line, n_col;
	uint32_t n_flags;
	dt_type *n_type;
	int64_t n_ival;
	const char *n_str;
	uint32_t n_slen;
	bool n_post;			/* postfix ++/-- */
	dt_node *n_a, *n_b, *n_c;
	dt_node *n_args;		/* list linked by n_next */
	dt_node *n_next;
	dt_type *n_ctype;		/* cast/sizeof/offsetof/xlate type */
	dt_ident *n_ident;		/* resolved identifier */
	int n_reg;			/* code generation: result register */
};

void dt_parse_program(dt_ctx *ctx);
void dt_parse_library(dt_ctx *ctx);	/* declarations only, may be empty */
/* parser internals shared by dt_parse.c and dt_parse_decl.c */
void dt_next(dt_ctx *ctx);
bool dt_accept(dt_ctx *ctx, dt_tokkind k);
void dt_expect(dt_ctx *ctx, dt_tokkind k);
_Noreturn void dt_syntax_error(dt_ctx *ctx);
const char *dt_ident_name(dt_ctx *ctx);
dt_node *dt_node_here(dt_ctx *ctx, dt_nodekind k);
dt_node *dt_parse_cond(dt_ctx *ctx);
dt_node *dt_parse_expr(dt_ctx *ctx);
bool dt_starts_type(dt_ctx *ctx);
dt_type *dt_parse_type(dt_ctx *ctx);
void dt_parse_declaration(dt_ctx *ctx);
void dt_parse_inline(dt_ctx *ctx);
void dt_parse_translator(dt_ctx *ctx);
dt_node *dt_node_new(dt_ctx *ctx, dt_nodekind k, const dt_tok *t);
dt_node *dt_node_int(dt_ctx *ctx, const dt_node *where, int64_t v,
    dt_type *type);

/* --- dt_sema.c --------------------------------------------------------- */

typedef enum dt_typekind {
	DT_TK_VOID = 1, DT_TK_INT, DT_TK_STRING, DT_TK_PTR, DT_TK_ARRAY,
	DT_TK_STRUCT, DT_TK_UNION, DT_TK_ENUM, DT_TK_FUNC, DT_TK_STACK,
	DT_TK_SYMADDR,		/* func()/sym()/mod() result */
	DT_TK_AGGFN,		/* result of an aggregating function */
	DT_TK_FLOAT,		/* float, double, long double (dt_float.c) */
} dt_typekind;

typedef struct dt_member {
	const char *m_name;
	dt_type *m_type;
	uint32_t m_off;			/* byte offset */
	struct dt_member *m_next;
} dt_member;

struct dt_type {
	dt_typekind ty_kind;
	uint32_t ty_size;		/* bytes */
	bool ty_signed;
	bool ty_complete;		/* struct/union/enum defined */
	bool ty_userland;
	const char *ty_name;		/* "int", "struct foo", typedef name */
	dt_type *ty_base;		/* pointee, element, typedef target */
	uint32_t ty_nelem;		/* array elements */
	dt_member *ty_members;		/* struct/union members, in order */
	uint32_t ty_align;
	uint8_t ty_bits;		/* a bit-field's width (0: not one) */
	uint8_t ty_bitoff;		/* a kernel bit-field's shift in its */
					/* bytes (dt_ctf.c); D's are 0 */
	uint32_t ty_ctfid;		/* a kernel struct whose members are */
					/* not imported yet (dt_ctf_members) */
};

typedef enum dt_identkind {
	DT_IDK_VAR = 1,		/* a D variable (global/thread/local) */
	DT_IDK_ARRAY,		/* an associative array */
	DT_IDK_AGG,		/* an aggregation */
	DT_IDK_BUILTIN,		/* a built-in variable (DIF_VAR_*) */
	DT_IDK_FUNC,		/* an action or subroutine */
	DT_IDK_AGGFUNC,		/* an aggregating function */
	DT_IDK_INLINE,		/* inline name = expr */
	DT_IDK_ENUMCONST,	/* an enumerator */
	DT_IDK_TYPEDEF,		/* a typedef name */
	DT_IDK_XLATOR,		/* translator: input type -> output type */
	DT_IDK_SYMBOL,		/* a kernel symbol named with ` */
} dt_identkind;

struct dt_ident {
	const char *id_name;
	dt_identkind id_kind;
	uint8_t id_scope;		/* DIF_SCOPE_* for variables */
	uint32_t id_id;			/* DIF variable id or function index */
	dt_type *id_type;		/* value type (NULL: not yet known) */
	dt_type *id_keys[DT_MAXKEYS];	/* associative array key types */
	uint32_t id_nkeys;
	bool id_keys_known;
	bool id_declared;		/* declared explicitly */
	int64_t id_value;		/* enumerator value */
	dt_node *id_expr;		/* inline body */
	bool id_busy;			/* inline: its body is being cooked */
	dt_type *id_xlin;		/* translator input type */
	dt_member *id_xlmembers;	/* translator member expressions */
	dt_node *id_xlexprs;		/* (parallel list, n_next) */
	uint32_t id_line;
	uint8_t id_alloca;		/* kinds of pointer stored (dt_sema_ptr.c) */
	bool id_kernel;			/* a kernel typedef (dt_ctf.c): a D */
					/* typedef of that name replaces it */
	/* aggregations */
	uint32_t id_aggidx;		/* index in the program's aggs */
	dt_ident *id_next;		/* hash chain */
};

/* Hash table of identifiers. */
#define DT_IDHASH 128
typedef struct dt_idhash {
	dt_ident *ih_buckets[DT_IDHASH];
} dt_idhash;

dt_ident *dt_ident_lookup(dt_idhash *h, const char *name);
dt_ident *dt_ident_insert(dt_ctx *ctx, dt_idhash *h, const char *name,
    dt_identkind kind);

void dt_sema_init(dt_ctx *ctx);
/* shared by dt_sema.c and dt_sema_ref.c */
const char *dt_sema_tname(const dt_type *t, char *buf, size_t len);
bool dt_sema_is_const(const dt_node *n);
bool dt_sema_is_dvar(const dt_node *n);
bool dt_sema_assignable(const dt_type *to, const dt_type *from);
void dt_sema_array_keys(dt_ctx *ctx, dt_node *n, dt_ident *id);
void dt_sema_keys_define(dt_ctx *ctx, dt_ident *id, dt_type *const *keys,
    uint32_t nkeys);
dt_node *dt_sema_cast_to(dt_ctx *ctx, dt_node *n, dt_type *t);
dt_ident *dt_sema_dvar_get(dt_ctx *ctx, int scope, const char *name,
    dt_type *t, bool arr);
_Noreturn void dt_sema_var_undef(dt_ctx *ctx, const dt_node *n);
bool dt_sema_body_assigns(dt_ctx *ctx, const dt_node *v);
_Noreturn void dt_sema_unindexed(dt_ctx *ctx, const dt_node *n, int scope,
    const dt_ident *id);
dt_node *dt_cook_var(dt_ctx *ctx, dt_node *n);
dt_node *dt_cook_selfthis(dt_ctx *ctx, dt_node *n);
dt_node *dt_cook_sym(dt_ctx *ctx, dt_node *n);
dt_node *dt_cook_index(dt_ctx *ctx, dt_node *n);
dt_node *dt_cook_member(dt_ctx *ctx, dt_node *n);
dt_node *dt_cook_cast(dt_ctx *ctx, dt_node *n);
dt_node *dt_cook_sizeof(dt_ctx *ctx, dt_node *n);
dt_node *dt_cook_offsetof(dt_ctx *ctx, dt_node *n);
dt_node *dt_cook_stringof(dt_ctx *ctx, dt_node *n);
/* dt_sema_ptr.c: pointers, scratch stores, char * as string */
bool dt_type_isstrcompat(const dt_type *t);
bool dt_sema_is_ptrvar(const dt_ident *id);
bool dt_sema_ptr_compat(const dt_type *t, const dt_node *r);
bool dt_sema_index_is_mem(dt_ctx *ctx, const dt_node *l);
bool dt_sema_is_memlval(const dt_node *n);
void dt_sema_memstore_check(dt_ctx *ctx, dt_node *n, dt_node *l,
    dt_tokkind op);
dt_node *dt_sema_as_string(dt_ctx *ctx, dt_node *n);
void dt_sema_string_inplace(dt_ctx *ctx, dt_node *n);
dt_node *dt_sema_decay(dt_ctx *ctx, dt_node *n);
void dt_sema_alloca_assign(dt_ctx *ctx, dt_node *asg);
void dt_types_init(dt_ctx *ctx);
void dt_inline_check(dt_ctx *ctx, dt_ident *id, dt_node *where);
dt_ident *dt_xlator_lookup(dt_ctx *ctx, dt_type *out, dt_type *in);
void dt_sema_clause(dt_ctx *ctx, dt_node *clause);
dt_node *dt_sema_expr(dt_ctx *ctx, dt_node *n);
/* dt_bag.c: the bag-> scope, turned into calls of the baggage subroutines */
bool dt_bag_is_ref(dt_ctx *ctx, const dt_node *n);
dt_node *dt_bag_cook_read(dt_ctx *ctx, dt_node *n);
dt_node *dt_bag_cook_select(dt_ctx *ctx, dt_node *n);
dt_node *dt_bag_cook_assign(dt_ctx *ctx, dt_node *n);
_Noreturn void dt_bag_op_error(dt_ctx *ctx, const dt_node *n);
bool dt_op2_chains(const dt_node *n);	/* a non-assignment binary op */
int64_t dt_sema_const(dt_ctx *ctx, dt_node *n);	/* constant integer */
dt_type *dt_type_new(dt_ctx *ctx, dt_typekind k, uint32_t size, const char *name);
dt_type *dt_type_int(dt_ctx *ctx, uint32_t size, bool sign);
dt_type *dt_type_ptr(dt_ctx *ctx, dt_type *base);
dt_type *dt_type_array(dt_ctx *ctx, dt_type *base, uint32_t n);
void dt_type_name(const dt_type *t, char *buf, size_t len);
bool dt_type_isint(const dt_type *t);
bool dt_type_isscalar(const dt_type *t);
bool dt_type_isstring(const dt_type *t);
dt_type *dt_type_lookup(dt_ctx *ctx, const char *name);
dt_type *dt_type_tagged(dt_ctx *ctx, dt_node *where, dt_tokkind kw,
    const char *tag, bool defining);
void dt_sou_member(dt_ctx *ctx, dt_node *where, dt_type *sou,
    const char *name, dt_type *mt);
void dt_enum_member(dt_ctx *ctx, dt_node *where, dt_type *en,
    const char *name, int64_t v);
void dt_sou_end(dt_ctx *ctx, dt_type *t);
void dt_decl_typedef(dt_ctx *ctx, dt_node *where, const char *name,
    dt_type *t);
void dt_decl_inline(dt_ctx *ctx, dt_node *where, dt_type *t,
    const char *name, dt_node *e);
void dt_decl_xlator(dt_ctx *ctx, dt_node *where, dt_type *out, dt_type *in,
    const char *arg, dt_node *members);
void dt_decl_var(dt_ctx *ctx, dt_node *where, int scope, dt_type *t,
    const char *name, dt_type **keys, uint32_t nkeys, bool arr);

/* The function table (actions, subroutines, aggregating functions). */
typedef enum dt_fnclass {
	DT_FN_ACT = 1,		/* an action (statement only) */
	DT_FN_SUBR,		/* a DIF subroutine (expression) */
	DT_FN_AGG,		/* an aggregating function */
	DT_FN_DESTR,		/* a destructive action */
} dt_fnclass;

typedef struct dt_func {
	const char *fn_name;
	dt_fnclass fn_class;
	uint8_t fn_min, fn_max;		/* argument counts (max 255 = any) */
	int fn_act;			/* dt_actkind or dt_aggfunc */
	int fn_subr;			/* DIF subroutine id, or -1 */
	const char *fn_proto;		/* argument kinds, see dt_sema.c */
	const char *fn_ret;		/* result: "i" int, "s" string, ... */
} dt_func;

const dt_func *dt_func_lookup(const char *name);

/* dt_func.c: argument helpers shared by dt_action.c and dt_agg.c */
uint32_t dt_fn_nargs(const dt_node *call);
void dt_fn_cook_args(dt_ctx *ctx, dt_node *call);
char dt_fn_proto_at(const dt_func *fn, uint32_t i);
const char *dt_fn_proto_text(char p);
bool dt_fn_proto_ok(char p, const dt_node *a);
_Noreturn void dt_fn_proto_len(dt_ctx *ctx, dt_node *n, const char *tag,
    const dt_func *fn, uint32_t got);
void dt_fn_check_len(dt_ctx *ctx, dt_node *n, const dt_func *fn,
    uint32_t na);
_Noreturn void dt_fn_proto_arg(dt_ctx *ctx, dt_node *n, const char *tag,
    const char *fname, uint32_t i, const char *proto, const dt_type *t);
int64_t dt_fn_stack_args(dt_ctx *ctx, const dt_func *fn, dt_node *a);
void dt_fn_check_destructive(dt_ctx *ctx, dt_node *n, const dt_func *fn);
int64_t dt_fn_const_arg(dt_ctx *ctx, dt_node *a, const char *tag,
    const char *msg);
dt_node *dt_cook_call(dt_ctx *ctx, dt_node *n);
const dt_func *dt_call_func(const dt_node *n);
bool dt_fn_is_action(const dt_node *n);

/* dt_action.c: speculation ordering rules (DTrace's), checked per action */
typedef enum dt_ordkind {
	DT_ORD_DREC, DT_ORD_AGG, DT_ORD_DESTR, DT_ORD_EXIT, DT_ORD_COMMIT,
	DT_ORD_SPEC, DT_ORD_NONE
} dt_ordkind;
void dt_order_check(dt_ctx *ctx, dt_node *n, dt_ordkind k);

/* dt_agg.c */
void dt_aggregation(dt_ctx *ctx, dt_node *asg);

/* dt_subr.c: the subroutines' kernel types and constants (kmutex_t, ...) */
void dt_subr_lib_init(dt_ctx *ctx);

/* dt_float.c: float, double and long double (bytes, no arithmetic) */
dt_type *dt_float_resolve(dt_ctx *ctx, int nfloat, int ndouble, int nlong,
    int nother, uint32_t line, uint32_t col);
bool dt_float_cast_ok(const dt_type *to, const dt_type *from);

/* dt_ctf.c: the kernel's types (o_ctf) as D types */
dt_type *dt_ctf_import(dt_ctx *ctx, uint32_t id);
dt_type *dt_ctf_tag(dt_ctx *ctx, dt_tokkind kw, const char *tag);
dt_ident *dt_ctf_typename(dt_ctx *ctx, const char *word);
dt_type *dt_ctf_basetype(dt_ctx *ctx, const char *name);
dt_type *dt_ctf_var(dt_ctx *ctx, const char *name);
dt_type *dt_ctf_parse(dt_ctx *ctx, const char *text);
dt_type *dt_ctf_arg(dt_ctx *ctx, const dt_node *n, int64_t i);
void dt_ctf_members(dt_ctx *ctx, dt_type *t);
dt_node *dt_ctf_xlate_arg(dt_ctx *ctx, dt_node *n);
void dt_ctf_members_deep(dt_ctx *ctx, dt_type *t);

/* dt_bitfield.c: bit-field members of D-declared structs and unions */
void dt_bitfield_member(dt_ctx *ctx, dt_node *where, dt_type *sou,
    const char *name, dt_type *base, dt_node *width);

/* --- dt_printf.c ------------------------------------------------------- */

int dt_printf_create(dt_ctx *ctx, dt_node *call, const char *fname,
    dt_node *fmt, dt_node *args, bool printa);

/* --- dt_proto.c: DTrace's prototypes and their messages ---------------- */

const char *dt_proto_argtype(const char *fname, uint32_t i, char *buf,
    size_t len);
bool dt_proto_check_len(dt_ctx *ctx, const dt_node *n, const char *fname,
    uint32_t got);
void dt_proto_printa_keys(dt_ctx *ctx, const dt_node *call,
    const dt_ident *l, const dt_ident *r);

/* --- dt_cg.c ----------------------------------------------------------- */

dif_difo_t *dt_cg_expr(dt_ctx *ctx, dt_node *expr);	/* ret value */

/* --- dt_program.c: internals ------------------------------------------- */

typedef struct dt_arena {
	uint8_t *a_base;
	size_t a_size, a_used;
} dt_arena;

/* Per-clause state the semantic pass keeps for ordering rules. */
typedef struct dt_clstate {
	bool cs_commit, cs_spec, cs_datarec, cs_destr;
	dt_clause *cs_clause;
	uint32_t cs_maxacts;
	dt_node *cs_src;		/* the clause's syntax node */
	dt_node *cs_pending;		/* if/else: predicate of the next split */
} dt_clstate;

struct dt_ctx {
	const char *c_src;
	size_t c_len;
	size_t c_pos;
	uint32_t c_line, c_col;
	dt_tok c_tok;			/* current token */
	dt_tok c_prev;			/* previous token */
	dt_lexmode c_mode;
	bool c_destructive;		/* -w or #pragma D option destructive */
	bool c_zdefs;
	bool c_defargs;			/* defaultargs (-x or #pragma) */
	bool c_argref;			/* argref */
	bool c_lastref;			/* the last macro argument is used */
	bool c_inpred;			/* parsing a predicate */
	const char *c_lib;		/* library file being compiled, or NULL */
	uint32_t c_depth;		/* recursion depth */
	dt_arena c_arena;
	void *c_jmp[5];			/* __builtin_setjmp buffer */
	dt_error *c_err;
	const dt_opts *c_opts;
	dt_opts c_defopts;
	dt_prog *c_prog;
	dt_idhash c_globals;		/* globals, builtins, funcs, aggs... */
	dt_idhash c_tls;		/* self-> */
	dt_idhash c_locals;		/* this-> */
	dt_idhash c_bag;		/* bag-> keys and their types (dt_bag.c) */
	dt_idhash c_types;		/* typedef names, struct/union/enum tags */
	uint32_t c_nextvar;		/* next DIF variable id */
	uint32_t c_nexttls;
	uint32_t c_nextlocal;
	dt_clstate c_cl;		/* clause being compiled */
	uint32_t c_nifs;		/* if statements so far (temp names) */
	/* growable arrays of the program (in the arena) */
	uint32_t c_capclauses, c_capaggs, c_capfmts, c_capopts, c_capvars;
	uint32_t c_strcap;
	/* code generation scratch */
	struct dt_cgbuf *c_cg;
	/* well-known types */
	dt_type *c_t_int, *c_t_uint, *c_t_long, *c_t_ulong, *c_t_char;
	dt_type *c_t_llong, *c_t_ullong, *c_t_short, *c_t_ushort, *c_t_uchar;
	dt_type *c_t_string, *c_t_void, *c_t_voidp, *c_t_stack, *c_t_symaddr;
	dt_type *c_t_aggfn, *c_t_schar;
	dt_node *c_predbody;		/* the clause's body, while its */
					/* predicate is cooked */
	dt_type *c_t_float[3];		/* float, double, long double (lazily) */
	dt_type **c_ctftypes;		/* dt_ctf.c: CTF id -> type (lazily) */
	dt_idhash c_ctfmiss;		/* dt_ctf.c: words CTF has no type for */
};

_Noreturn void dt_error_at(dt_ctx *ctx, uint32_t line, uint32_t col,
    const char *tag, const char *fmt, ...);
_Noreturn void dt_error_node(dt_ctx *ctx, const dt_node *n, const char *tag,
    const char *fmt, ...);
_Noreturn void dt_error_tok(dt_ctx *ctx, const char *tag, const char *fmt,
    ...);
void *dt_alloc(dt_ctx *ctx, size_t n);		/* zeroed, 8-aligned */
char *dt_strdup(dt_ctx *ctx, const char *s, size_t n);
void *dt_grow(dt_ctx *ctx, void *old, uint32_t n, uint32_t *cap,
    size_t elem);
dt_action *dt_action_add(dt_ctx *ctx, dt_actkind k, const dt_node *where);
uint32_t dt_agg_add(dt_ctx *ctx, const char *name);
uint32_t dt_format_add(dt_ctx *ctx, const dt_fmtdesc *fd);
void dt_option_add(dt_ctx *ctx, const char *name, const char *value,
    uint32_t line);
void dt_vardesc_add(dt_ctx *ctx, dt_ident *id);
void dt_clause_begin(dt_ctx *ctx, dt_node *clause);
void dt_clause_end(dt_ctx *ctx);
void dt_clause_split(dt_ctx *ctx);
void dt_pragma(dt_ctx *ctx, char *text, uint32_t line);

/* small freestanding helpers */
size_t dt_strlen(const char *s);
int dt_strcmp(const char *a, const char *b);
bool dt_streq(const char *a, const char *b);
size_t dt_snprintf(char *buf, size_t len, const char *fmt, ...);
size_t dt_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap);

/* dt_options.c: DTrace's options, their kinds and value syntax */
typedef enum dt_optkind {
	DT_OPTK_FLAG,			/* runtime boolean: none, yes/no, a number */
	DT_OPTK_CFLAG,			/* compiler flag: no value */
	DT_OPTK_SIZE,			/* bytes, with k/m/g/t */
	DT_OPTK_TIME,			/* ns, with a unit, or a rate in hz */
	DT_OPTK_SCALAR,			/* an integer */
	DT_OPTK_WORD,			/* one of a few words */
	DT_OPTK_TEXT,			/* any text */
	DT_OPTK_VERSION			/* a D version, "1.6.2" */
} dt_optkind;

typedef struct dt_optval {
	const char *ov_name;		/* the option's name, as in the table */
	dt_optkind ov_kind;
	bool ov_set;			/* FLAG: set (false: no/false/off...) */
	uint64_t ov_num;		/* bytes, ns, the integer, word index */
	const char *ov_text;		/* the value as given (NULL: none) */
} dt_optval;

typedef enum dt_opterr {
	DT_OPT_OK, DT_OPT_BADNAME, DT_OPT_BADVAL, DT_OPT_VERSINVAL,
	DT_OPT_VERSUNDEF
} dt_opterr;

/*
 * dt_option_parse: look name up and parse value (NULL: none given) by
 * the option's kind into *o.  Pure; any context.
 */
dt_opterr dt_option_parse(const char *name, const char *value, dt_optval *o);
/* dt_option_errmsg: libdtrace's message for e ("Invalid option name"). */
const char *dt_option_errmsg(dt_opterr e);

#endif /* DLANG_DT_H */
