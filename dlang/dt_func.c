/*
 * dlang/dt_func.c: D's functions: actions, subroutines, aggregating
 * functions.
 *
 * One table names every function D knows, with its class, argument count
 * range, prototype (one letter per argument) and, for subroutines, DIF's
 * subroutine id.  This file type-checks calls against it with DTrace's
 * D_PROTO_LEN / D_PROTO_ARG messages, cooks subroutine calls inside
 * expressions (dt_cook_call), and provides the argument helpers that
 * dt_action.c (actions) and dt_agg.c (aggregations) share.
 */
#include "dlang/dt.h"

/*
 * Prototype letters: i integer, p pointer or integer, s string, S string
 * or 0, x anything traceable, a aggregation, f format string, o option
 * name; pointers only (or NULL): P void *, M kmutex_t *, W krwlock_t *,
 * 4 ipaddr_t *, 6 in6_addr_t *.  The last letter repeats for extra
 * arguments (up to fn_max).  Result letters: i int, l int64_t, u size_t,
 * U unsigned int, s string, v void, p void *.
 */
static const dt_func dt_funcs[] = {
	/* actions */
	{ "trace", DT_FN_ACT, 1, 1, DT_ACT_TRACE, -1, "x", "v" },
	{ "printf", DT_FN_ACT, 1, 255, DT_ACT_PRINTF, -1, "fx", "v" },
	{ "printa", DT_FN_ACT, 1, 255, DT_ACT_PRINTA, -1, "a", "v" },
	{ "exit", DT_FN_ACT, 1, 1, DT_ACT_EXIT, -1, "i", "v" },
	{ "stack", DT_FN_ACT, 0, 1, DT_ACT_STACK, -1, "i", "v" },
	{ "ustack", DT_FN_ACT, 0, 2, DT_ACT_USTACK, -1, "i", "v" },
	{ "tracemem", DT_FN_ACT, 2, 2, DT_ACT_TRACEMEM, -1, "pi", "v" },
	{ "func", DT_FN_ACT, 1, 1, DT_ACT_SYM, -1, "p", "v" },
	{ "sym", DT_FN_ACT, 1, 1, DT_ACT_SYM, -1, "p", "v" },
	{ "mod", DT_FN_ACT, 1, 1, DT_ACT_MOD, -1, "p", "v" },
	{ "speculate", DT_FN_ACT, 1, 1, DT_ACT_SPECULATE, -1, "i", "v" },
	{ "commit", DT_FN_ACT, 1, 1, DT_ACT_COMMIT, -1, "i", "v" },
	{ "discard", DT_FN_ACT, 1, 1, DT_ACT_DISCARD, -1, "i", "v" },
	{ "clear", DT_FN_ACT, 1, 1, DT_ACT_CLEAR, -1, "a", "v" },
	{ "trunc", DT_FN_ACT, 1, 2, DT_ACT_TRUNC, -1, "ai", "v" },
	{ "normalize", DT_FN_ACT, 2, 2, DT_ACT_NORMALIZE, -1, "ai", "v" },
	{ "denormalize", DT_FN_ACT, 1, 1, DT_ACT_DENORMALIZE, -1, "a", "v" },
	{ "setopt", DT_FN_ACT, 1, 2, DT_ACT_SETOPT, -1, "ss", "v" },
	/* destructive actions */
	{ "panic", DT_FN_DESTR, 0, 0, DT_ACT_PANIC, -1, "", "v" },
	{ "breakpoint", DT_FN_DESTR, 0, 0, DT_ACT_BREAKPOINT, -1, "", "v" },
	{ "stop", DT_FN_DESTR, 0, 0, DT_ACT_STOP, -1, "", "v" },
	{ "chill", DT_FN_DESTR, 1, 1, DT_ACT_CHILL, -1, "i", "v" },
	{ "raise", DT_FN_DESTR, 1, 1, DT_ACT_RAISE, -1, "i", "v" },
	{ "system", DT_FN_DESTR, 1, 255, DT_ACT_SYSTEM, -1, "fx", "v" },
	{ "freopen", DT_FN_DESTR, 1, 255, DT_ACT_FREOPEN, -1, "fx", "v" },
	{ "ftruncate", DT_FN_ACT, 0, 0, DT_ACT_FTRUNCATE, -1, "", "v" },
	{ "print", DT_FN_ACT, 1, 1, DT_ACT_PRINT, -1, "x", "v" },
	/* jstack([frames [, strsize]]): ustack, there being no Java helper */
	{ "jstack", DT_FN_ACT, 0, 2, DT_ACT_USTACK, -1, "i", "v" },
	/* aggregating functions */
	{ "count", DT_FN_AGG, 0, 0, DT_AGG_COUNT, -1, "", "v" },
	{ "sum", DT_FN_AGG, 1, 1, DT_AGG_SUM, -1, "i", "v" },
	{ "avg", DT_FN_AGG, 1, 1, DT_AGG_AVG, -1, "i", "v" },
	{ "min", DT_FN_AGG, 1, 1, DT_AGG_MIN, -1, "i", "v" },
	{ "max", DT_FN_AGG, 1, 1, DT_AGG_MAX, -1, "i", "v" },
	{ "stddev", DT_FN_AGG, 1, 1, DT_AGG_STDDEV, -1, "i", "v" },
	{ "quantize", DT_FN_AGG, 1, 2, DT_AGG_QUANTIZE, -1, "i", "v" },
	{ "lquantize", DT_FN_AGG, 3, 5, DT_AGG_LQUANTIZE, -1, "i", "v" },
	{ "llquantize", DT_FN_AGG, 5, 6, DT_AGG_LLQUANTIZE, -1, "i", "v" },
	/* subroutines (DIF's dif_subr.def) */
	{ "strlen", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_STRLEN, "s", "u" },
	{ "strjoin", DT_FN_SUBR, 2, 2, 0, DIF_SUBR_STRJOIN, "ss", "s" },
	{ "substr", DT_FN_SUBR, 2, 3, 0, DIF_SUBR_SUBSTR, "sii", "s" },
	{ "index", DT_FN_SUBR, 2, 3, 0, DIF_SUBR_INDEX, "ssi", "i" },
	{ "rindex", DT_FN_SUBR, 2, 3, 0, DIF_SUBR_RINDEX, "ssi", "i" },
	{ "strchr", DT_FN_SUBR, 2, 2, 0, DIF_SUBR_STRCHR, "si", "s" },
	{ "strrchr", DT_FN_SUBR, 2, 2, 0, DIF_SUBR_STRRCHR, "si", "s" },
	{ "strstr", DT_FN_SUBR, 2, 2, 0, DIF_SUBR_STRSTR, "ss", "s" },
	{ "strtok", DT_FN_SUBR, 2, 2, 0, DIF_SUBR_STRTOK, "Ss", "s" },
	{ "lltostr", DT_FN_SUBR, 1, 2, 0, DIF_SUBR_LLTOSTR, "ii", "s" },
	{ "toupper", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_TOUPPER, "s", "s" },
	{ "tolower", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_TOLOWER, "s", "s" },
	{ "basename", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_BASENAME, "s", "s" },
	{ "dirname", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_DIRNAME, "s", "s" },
	{ "bcopy", DT_FN_SUBR, 3, 3, 0, DIF_SUBR_BCOPY, "ppi", "v" },
	{ "alloca", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_ALLOCA, "i", "p" },
	{ "rand", DT_FN_SUBR, 0, 0, 0, DIF_SUBR_RAND, "", "i" },
	{ "speculation", DT_FN_SUBR, 0, 0, 0, DIF_SUBR_SPECULATION, "", "i" },
	{ "copyin", DT_FN_SUBR, 2, 2, 0, DIF_SUBR_COPYIN, "pi", "p" },
	{ "copyinstr", DT_FN_SUBR, 1, 2, 0, DIF_SUBR_COPYINSTR, "pi", "s" },
	{ "copyinto", DT_FN_SUBR, 3, 3, 0, DIF_SUBR_COPYINTO, "pip", "v" },
	{ "copyout", DT_FN_DESTR, 3, 3, -1, DIF_SUBR_COPYOUT, "ppi", "v" },
	{ "copyoutstr", DT_FN_DESTR, 3, 3, -1, DIF_SUBR_COPYOUTSTR, "spi",
	    "v" },
	{ "strtoll", DT_FN_SUBR, 1, 2, 0, DIF_SUBR_STRTOLL, "si", "l" },
	{ "htons", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_HTONS, "i", "i" },
	{ "htonl", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_HTONL, "i", "i" },
	{ "htonll", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_HTONLL, "i", "l" },
	{ "ntohs", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_NTOHS, "i", "i" },
	{ "ntohl", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_NTOHL, "i", "i" },
	{ "ntohll", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_NTOHLL, "i", "l" },
	{ "strncmp", DT_FN_SUBR, 3, 3, 0, DIF_SUBR_STRNCMP, "ssi", "i" },
	/* kernel objects, paths, devices, addresses (dlang/dt_subr.c) */
	{ "mutex_owned", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_MUTEX_OWNED, "M", "i" },
	{ "mutex_owner", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_MUTEX_OWNER, "M", "p" },
	{ "mutex_type_adaptive", DT_FN_SUBR, 1, 1, 0,
	    DIF_SUBR_MUTEX_TYPE_ADAPTIVE, "M", "i" },
	{ "mutex_type_spin", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_MUTEX_TYPE_SPIN,
	    "M", "i" },
	{ "rw_read_held", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_RW_READ_HELD, "W",
	    "i" },
	{ "rw_write_held", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_RW_WRITE_HELD, "W",
	    "i" },
	{ "rw_iswriter", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_RW_ISWRITER, "W", "i" },
	{ "progenyof", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_PROGENYOF, "i", "i" },
	{ "cleanpath", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_CLEANPATH, "s", "s" },
	{ "getmajor", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_GETMAJOR, "i", "U" },
	{ "getminor", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_GETMINOR, "i", "U" },
	{ "inet_ntoa", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_INET_NTOA, "4", "s" },
	{ "inet_ntoa6", DT_FN_SUBR, 1, 1, 0, DIF_SUBR_INET_NTOA6, "6", "s" },
	{ "inet_ntop", DT_FN_SUBR, 2, 2, 0, DIF_SUBR_INET_NTOP, "iP", "s" },
	{ "link_ntop", DT_FN_SUBR, 2, 2, 0, DIF_SUBR_LINK_NTOP, "iP", "s" },
};

const dt_func *
dt_func_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof (dt_funcs) / sizeof (dt_funcs[0]); i++)
		if (dt_streq(dt_funcs[i].fn_name, name))
			return (&dt_funcs[i]);
	return (NULL);
}

char
dt_fn_proto_at(const dt_func *fn, uint32_t i)
{
	size_t n = dt_strlen(fn->fn_proto);
	if (n == 0)
		return ('x');
	return (fn->fn_proto[i < n ? i : n - 1]);
}

const char *
dt_fn_proto_text(char p)
{
	switch (p) {
	case 'i': return ("int");
	case 'p': return ("pointer or integer");
	case 's': return ("string");
	case 'S': return ("string or NULL");
	case 'a': return ("aggregation");
	case 'f': return ("string constant");
	case 'P': return ("void *");
	case 'M': return ("kmutex_t *");
	case 'W': return ("krwlock_t *");
	case '4': return ("ipaddr_t *");
	case '6': return ("in6_addr_t *");
	default: return ("any");
	}
}

/*
 * A pointer parameter (P M W 4 6) takes the constant 0 (NULL), or a
 * pointer or array whose element type is void or the parameter's own
 * (kmutex_t, krwlock_t, ipaddr_t: a 4-byte unsigned integer, in6_addr_t;
 * any for P), never another integer or a string: DTrace's rule for pointer
 * arguments.
 */
static bool
dt_fn_ptr_ok(char p, const dt_type *t, const dt_node *a)
{
	const dt_type *b = t->ty_base;

	if (t->ty_kind != DT_TK_PTR && t->ty_kind != DT_TK_ARRAY)
		return (dt_type_isint(t) && (a->n_flags & DT_NF_CONST) &&
		    a->n_ival == 0);
	if (p == 'P' || b == NULL || b->ty_kind == DT_TK_VOID)
		return (true);
	switch (p) {
	case 'M': return (b->ty_name != NULL && dt_streq(b->ty_name,
	    "struct kmutex"));
	case 'W': return (b->ty_name != NULL && dt_streq(b->ty_name,
	    "struct krwlock"));
	case '6': return (b->ty_name != NULL && dt_streq(b->ty_name,
	    "struct in6_addr"));
	default: return (b->ty_kind == DT_TK_INT && b->ty_size == 4 &&
	    !b->ty_signed && b->ty_bits == 0);
	}
}

bool
dt_fn_proto_ok(char p, const dt_node *a)
{
	const dt_type *t = a->n_type;
	switch (p) {
	case 'i': return (dt_type_isint(t));
	case 'p': return (dt_type_isscalar(t));
	case 's': return (dt_type_isstring(t));
	case 'S': return (dt_type_isstring(t) || ((a->n_flags &
	    DT_NF_CONST) && a->n_ival == 0));
	case 'P': case 'M': case 'W': case '4': case '6':
		return (dt_fn_ptr_ok(p, t, a));
	default: return (true);
	}
}

_Noreturn void
dt_fn_proto_len(dt_ctx *ctx, dt_node *n, const char *tag, const dt_func *fn,
    uint32_t got)
{
	const char *pre = fn->fn_min == fn->fn_max ? "" : got < fn->fn_min ?
	    "at least " : "no more than ";
	uint32_t exp = got < fn->fn_min ? fn->fn_min : fn->fn_max;
	dt_error_node(ctx, n, tag, "%s( ) prototype mismatch: %u arg%s "
	    "passed, %s%u expected", fn->fn_name, got, got == 1 ? "" : "s",
	    pre, exp);
}

_Noreturn void
dt_fn_proto_arg(dt_ctx *ctx, dt_node *n, const char *tag, const char *fname,
    uint32_t i, const char *proto, const dt_type *t)
{
	char b[64];
	dt_type_name(t, b, sizeof (b));
	if (t->ty_kind == DT_TK_AGGFN)
		dt_snprintf(b, sizeof (b), "aggregation");
	dt_error_node(ctx, n, tag, "%s( ) argument #%u is incompatible with "
	    "prototype:\n\tprototype: %s\n\t argument: %s", fname, i, proto,
	    b);
}

uint32_t
dt_fn_nargs(const dt_node *n)
{
	uint32_t c = 0;
	for (const dt_node *a = n->n_args; a != NULL; a = a->n_next)
		c++;
	return (c);
}

/* Cook the arguments of call n (aggregations are left to the caller). */
void
dt_fn_cook_args(dt_ctx *ctx, dt_node *n)
{
	for (dt_node **a = &n->n_args; *a != NULL; a = &(*a)->n_next) {
		if ((*a)->n_kind == DT_N_AGG) {
			(*a)->n_type = ctx->c_t_aggfn;
			continue;
		}
		dt_node *nx = (*a)->n_next;
		*a = dt_sema_expr(ctx, *a);
		(*a)->n_next = nx;
	}
}

static dt_type *
ret_type(dt_ctx *ctx, char r)
{
	switch (r) {
	case 's': return (ctx->c_t_string);
	case 'u': return (ctx->c_t_ulong);
	case 'U': return (ctx->c_t_uint);
	case 'l': return (ctx->c_t_long);
	case 'p': return (ctx->c_t_voidp);
	case 'v': return (ctx->c_t_void);
	default: return (ctx->c_t_int);
	}
}

void
dt_fn_check_destructive(dt_ctx *ctx, dt_node *n, const dt_func *fn)
{
	if (fn->fn_class != DT_FN_DESTR)
		return;
	if (!ctx->c_destructive)
		dt_error_node(ctx, n, "D_DESTRUCT", "%s( ) is a destructive "
		    "action: Destructive actions not allowed (use -w)",
		    fn->fn_name);
	if (ctx->c_cl.cs_clause != NULL)
		ctx->c_cl.cs_destr = true;
}

/*
 * A call in an expression: a subroutine (typed by its prototype).  An
 * action used as a value is void; an aggregating function outside an
 * aggregation is an error.
 */
dt_node *
dt_cook_call(dt_ctx *ctx, dt_node *n)
{
	const dt_func *fn = dt_func_lookup(n->n_str);
	if (fn == NULL) {
		if (dt_ident_lookup(&ctx->c_globals, n->n_str) != NULL ||
		    dif_builtin_lookup(n->n_str, dt_strlen(n->n_str)) != NULL)
			dt_error_node(ctx, n, "D_FUNC_IDENT", "%s is not a "
			    "function", n->n_str);
		dt_error_node(ctx, n, "D_FUNC_UNDEF", "undefined function "
		    "name: %s", n->n_str);
	}
	if (fn->fn_class == DT_FN_AGG)
		dt_error_node(ctx, n, "D_AGG_FUNC", "%s( ) may only be used "
		    "as the value of an aggregation", fn->fn_name);
	if (fn->fn_class == DT_FN_ACT || (fn->fn_class == DT_FN_DESTR &&
	    fn->fn_subr < 0))
		dt_error_node(ctx, n, "D_OP_ACT", "%s( ) is an action and may "
		    "not be used in an expression", fn->fn_name);
	uint32_t na = dt_fn_nargs(n);
	if (na < fn->fn_min || na > fn->fn_max)
		dt_fn_proto_len(ctx, n, "D_PROTO_LEN", fn, na);
	dt_fn_cook_args(ctx, n);
	n->n_ident = NULL;
	n->n_ival = (int64_t)(fn - dt_funcs);
	if (fn->fn_subr >= 0) {
		uint32_t i = 0;
		for (dt_node *a = n->n_args; a != NULL; a = a->n_next, i++)
			if (!dt_fn_proto_ok(dt_fn_proto_at(fn, i), a))
				dt_fn_proto_arg(ctx, n, "D_PROTO_ARG", fn->fn_name,
				    i + 1, dt_fn_proto_text(dt_fn_proto_at(fn, i)),
				    a->n_type);
		dt_fn_check_destructive(ctx, n, fn);
	}
	n->n_type = ret_type(ctx, fn->fn_ret[0]);
	return (n);
}

const dt_func *
dt_call_func(const dt_node *n)
{
	return (&dt_funcs[n->n_ival]);
}

/* Map a function to its proto-length tag (DTrace names some per action). */
const char *
dt_fn_len_tag(const dt_func *fn)
{
	switch (fn->fn_act) {
	case DT_ACT_STACK: return ("D_STACK_PROTO");
	case DT_ACT_USTACK: return ("D_USTACK_PROTO");
	case DT_ACT_PRINTA: return ("D_PRINTA_PROTO");
	case DT_ACT_CLEAR: return ("D_CLEAR_PROTO");
	case DT_ACT_TRUNC: return ("D_TRUNC_PROTO");
	case DT_ACT_NORMALIZE: case DT_ACT_DENORMALIZE:
		return ("D_NORMALIZE_PROTO");
	default: return ("D_PROTO_LEN");
	}
}

int64_t
dt_fn_const_arg(dt_ctx *ctx, dt_node *a, const char *tag, const char *msg)
{
	if (!(a->n_flags & DT_NF_CONST) || a->n_ival <= 0)
		dt_error_node(ctx, a, tag, "%s", msg);
	return (a->n_ival);
}

