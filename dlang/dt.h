/*
 * dlang/dt.h: the D compiler's internals, sectioned by file.
 *
 * The D compiler turns D source text into a compiled program object
 * (dt_prog, dlang/dt_prog.h: the compiler's public face, all that the
 * tracing framework includes).  This header is what the compiler's files
 * share among themselves, and what the consumer and the host tools use to
 * look inside the compiler (D types for print(), tokens for messages).
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
#include "dlang/dt_prog.h"

typedef struct dt_ctx dt_ctx;
typedef struct dt_node dt_node;
typedef struct dt_ident dt_ident;

/* ===================================================================== */
/* Internal interfaces (dt_prog.h has the program object)               */
/* ===================================================================== */

/*
 * Nesting limit of expressions and statements (parser and tree depth).
 * Stack use grows by a few hundred bytes per level; see docs/d-language.md.
 */
#define DT_MAXDEPTH	32
#define DT_NOINLINE	__attribute__((noinline))

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
	DT_N_SIZEOF,		/* sizeof n_a / sizeof(n_ctype) */
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
void dt_parse_provider(dt_ctx *ctx);	/* dt_provider.c */
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
	dt_node *id_params;		/* inline name[T a, ...]: the parameters */
					/* (n_str the name, n_ctype the type) */
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
bool dt_sema_is_null(const dt_node *n);
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
dt_node *dt_cook_xlate(dt_ctx *ctx, dt_node *n);
void dt_xlator_check(dt_ctx *ctx, dt_ident *xl);
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
dt_node *dt_sema_str_chars(dt_ctx *ctx, dt_node *n);
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
    const char *name, dt_node *e, dt_node *params);
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

/*
 * dt_func_lookup: the function named name, or NULL, also when it is newer
 * than the D version ctx's program is bound to (then the name is the
 * program's to use).  ctx NULL: any version.
 */
const dt_func *dt_func_lookup(const dt_ctx *ctx, const char *name);

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
	bool c_zdefs;
	bool c_defargs;			/* defaultargs (-x or #pragma) */
	bool c_argref;			/* argref */
	uint32_t c_version;		/* the D version bound (DT_VERSION_NUMBER) */
	bool c_lastref;			/* the last macro argument is used */
	bool c_inpred;			/* parsing a predicate */
	int c_parens, c_brackets;	/* ( and [ open, as DTrace's lexer counts */
	uint32_t c_lexhw;		/* offset past the last token counted */
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

/*
 * D versions as DTrace numbers them: major << 24 | minor << 12 | micro.
 * The newest one the compiler offers is what dtrace -V reports and what
 * programs are bound to unless the version option says otherwise.
 */
#define DT_VERSION_NUMBER(M, m, u) \
	((uint32_t)(M) << 24 | (uint32_t)(m) << 12 | (uint32_t)(u))
#define DT_VERSION_LATEST DT_VERSION_NUMBER(1, 13, 0)
#define DT_VERSION_LATEST_STR "1.13"
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
	DT_OPT_VERSUNDEF, DT_OPT_VERSREDUCED
} dt_opterr;

/*
 * dt_option_parse: look name up and parse value (NULL: none given) by
 * the option's kind into *o.  Pure; any context.
 */
dt_opterr dt_option_parse(const char *name, const char *value, dt_optval *o);
/* dt_option_errmsg: libdtrace's message for e ("Invalid option name"). */
const char *dt_option_errmsg(dt_opterr e);

#endif /* DLANG_DT_H */
