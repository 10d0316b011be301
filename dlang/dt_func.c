/*
 * dlang/dt_func.c: D's functions: actions, subroutines, aggregating
 * functions.
 *
 * One table names every function D knows, with its class, argument count
 * range, prototype (one letter per argument: which types it accepts) and,
 * for subroutines, DIF's subroutine id.  This file type-checks calls
 * against it with DTrace's D_PROTO_LEN / D_PROTO_ARG messages (the counts
 * and C parameter types DTrace declares are in dt_proto.c), cooks calls
 * inside expressions (dt_cook_call), and provides the argument helpers
 * that dt_action.c (actions) and dt_agg.c (aggregations) share.  A
 * function newer than the D version the program is bound to is not found
 * (dt_func_vers below).
 *
 * Tests: tests/d/err.D_PROTO_*.d, err.D_FUNC_*.d; tests/dlang/strings_subr.S
 */
#include "dlang/dt.h"

/*
 * Prototype letters: i integer, p pointer or integer, v any address (a
 * pointer, integer, string or array: void *), s string (or char *), S
 * string or 0, x anything traceable, a aggregation, f format string, o
 * option name; pointers only (or NULL): P void *, M kmutex_t *, W
 * krwlock_t *, 4 ipaddr_t *, 6 in6_addr_t *.  The last letter repeats for
 * extra arguments (up to fn_max).  Result letters: i int, l int64_t, u
 * size_t, U unsigned int, s string, v void, p void *.
 */
static const dt_func dt_funcs[] = {
	/* actions */
	{ "trace", DT_FN_ACT, 1, 1, DT_ACT_TRACE, -1, "x", "v" },
	{ "printf", DT_FN_ACT, 1, 255, DT_ACT_PRINTF, -1, "fx", "v" },
	{ "printa", DT_FN_ACT, 1, 255, DT_ACT_PRINTA, -1, "a", "v" },
	{ "exit", DT_FN_ACT, 1, 1, DT_ACT_EXIT, -1, "i", "v" },
	{ "stack", DT_FN_ACT, 0, 1, DT_ACT_STACK, -1, "i", "v" },
	{ "ustack", DT_FN_ACT, 0, 2, DT_ACT_USTACK, -1, "i", "v" },
	{ "tracemem", DT_FN_ACT, 2, 3, DT_ACT_TRACEMEM, -1, "pii", "v" },
	{ "func", DT_FN_ACT, 1, 1, DT_ACT_SYM, -1, "p", "v" },
	{ "sym", DT_FN_ACT, 1, 1, DT_ACT_SYM, -1, "p", "v" },
	{ "mod", DT_FN_ACT, 1, 1, DT_ACT_MOD, -1, "p", "v" },
	{ "ufunc", DT_FN_ACT, 1, 1, DT_ACT_USYM, -1, "p", "v" },
	{ "usym", DT_FN_ACT, 1, 1, DT_ACT_USYM, -1, "p", "v" },
	{ "uaddr", DT_FN_ACT, 1, 1, DT_ACT_UADDR, -1, "p", "v" },
	{ "umod", DT_FN_ACT, 1, 1, DT_ACT_UMOD, -1, "p", "v" },
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
	{ "bcopy", DT_FN_SUBR, 3, 3, 0, DIF_SUBR_BCOPY, "vpi", "v" },
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
	/* the bag-> scope (dlang/dt_bag.c): names no program can spell */
	{ "bag->packi", DT_FN_SUBR, 3, 3, 0, DIF_SUBR_BAG_PACK, "sii", "i" },
	{ "bag->packs", DT_FN_SUBR, 3, 3, 0, DIF_SUBR_BAG_PACK, "ssi", "i" },
	{ "bag->get", DT_FN_SUBR, 2, 2, 0, DIF_SUBR_BAG_GET, "si", "l" },
	{ "bag->getstr", DT_FN_SUBR, 2, 2, 0, DIF_SUBR_BAG_GETSTR, "si", "s" },
};

/*
 * The D version that introduced a function, for those DTrace added after
 * 1.0 (the rest are 1.0's).  A program bound to an older version
 * (-x version=, #pragma D option version=) does not see them: the name is
 * undefined there, and free for the program's own variables, which is
 * what a version binding is for (the Guide's "Versioning" chapter).
 */
#define V(M, m, u) DT_VERSION_NUMBER(M, m, u)
static const struct { const char *fv_name; uint32_t fv_vers; } dt_func_vers[] = {
	{ "freopen", V(1, 1, 0) }, { "index", V(1, 1, 0) },
	{ "rindex", V(1, 1, 0) }, { "strchr", V(1, 1, 0) },
	{ "strrchr", V(1, 1, 0) }, { "strstr", V(1, 1, 0) },
	{ "strtok", V(1, 1, 0) }, { "substr", V(1, 1, 0) },
	{ "func", V(1, 2, 0) }, { "mod", V(1, 2, 0) }, { "sym", V(1, 2, 0) },
	{ "uaddr", V(1, 2, 0) }, { "ufunc", V(1, 2, 0) },
	{ "umod", V(1, 2, 0) }, { "usym", V(1, 2, 0) },
	{ "htonl", V(1, 3, 0) }, { "htonll", V(1, 3, 0) },
	{ "htons", V(1, 3, 0) }, { "ntohl", V(1, 3, 0) },
	{ "ntohll", V(1, 3, 0) }, { "ntohs", V(1, 3, 0) },
	{ "inet_ntoa", V(1, 5, 0) }, { "inet_ntoa6", V(1, 5, 0) },
	{ "inet_ntop", V(1, 5, 0) },
	{ "stddev", V(1, 6, 0) },
	{ "llquantize", V(1, 7, 0) },
	{ "tolower", V(1, 8, 0) }, { "toupper", V(1, 8, 0) },
	{ "print", V(1, 9, 0) },
	{ "strtoll", V(1, 11, 0) },
};
#undef V

static uint32_t func_version(const char *name)
{
	for (size_t i = 0; i < sizeof(dt_func_vers) / sizeof(dt_func_vers[0]); i++)
		if (dt_streq(dt_func_vers[i].fv_name, name))
			return dt_func_vers[i].fv_vers;
	return DT_VERSION_NUMBER(1, 0, 0);
}

const dt_func *dt_func_lookup(const dt_ctx *ctx, const char *name)
{
	for (size_t i = 0; i < sizeof(dt_funcs) / sizeof(dt_funcs[0]); i++)
		if (dt_streq(dt_funcs[i].fn_name, name))
			return ctx == NULL || func_version(name) <= ctx->c_version ?
			    &dt_funcs[i] : NULL;
	return NULL;
}

char dt_fn_proto_at(const dt_func *fn, uint32_t i)
{
	size_t n = dt_strlen(fn->fn_proto);
	if (n == 0)
		return 'x';
	return fn->fn_proto[i < n ? i : n - 1];
}

const char *dt_fn_proto_text(char p)
{
	switch (p) {
	case 'i': return ("int");
	case 'p': return ("pointer or integer");
	case 's': return ("string");
	case 'S': return ("string or NULL");
	case 'v': return ("void *");
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
static bool dt_fn_ptr_ok(char p, const dt_type *t, const dt_node *a)
{
	const dt_type *b = t->ty_base;

	if (t->ty_kind != DT_TK_PTR && t->ty_kind != DT_TK_ARRAY)
		return (dt_type_isint(t) && (a->n_flags & DT_NF_CONST) &&
		    a->n_ival == 0);
	if (p == 'P' || b == NULL || b->ty_kind == DT_TK_VOID)
		return true;
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

bool dt_fn_proto_ok(char p, const dt_node *a)
{
	const dt_type *t = a->n_type;
	switch (p) {
	case 'i': return (dt_type_isint(t));
	case 'p': return (dt_type_isscalar(t) || t->ty_kind == DT_TK_ARRAY);
	case 'v': return (dt_type_isscalar(t) || dt_type_isstring(t) ||
	    t->ty_kind == DT_TK_ARRAY);
	case 's': return (dt_type_isstring(t));
	case 'S': return (dt_type_isstring(t) || ((a->n_flags &
	    DT_NF_CONST) && a->n_ival == 0));
	case 'P': case 'M': case 'W': case '4': case '6':
		return dt_fn_ptr_ok(p, t, a);
	default: return (true);
	}
}

/*
 * D_PROTO_LEN as DTrace words it (dt_proto.c has the rule for the
 * functions DTrace declares; this is the same wording from fn_min/fn_max):
 * "N args passed, M expected", "at least M" when arguments are optional.
 */
_Noreturn void dt_fn_proto_len(dt_ctx *ctx, dt_node *n, const char *tag, const dt_func *fn,
                               uint32_t got)
{
	const char *pre = fn->fn_min != fn->fn_max && fn->fn_max != 255 ?
	    "at least " : "";
	dt_error_node(ctx, n, tag, "%s( ) prototype mismatch: %u arg%s "
	    "passed, %s%u expected", fn->fn_name, got, got == 1 ? "" : "s",
	    pre, fn->fn_min);
}

/* The argument count of a call to fn: DTrace's prototype first. */
void dt_fn_check_len(dt_ctx *ctx, dt_node *n, const dt_func *fn, uint32_t na)
{
	if (!dt_proto_check_len(ctx, n, fn->fn_name, na) &&
	    (na < fn->fn_min || na > fn->fn_max))
		dt_fn_proto_len(ctx, n, "D_PROTO_LEN", fn, na);
}

_Noreturn void dt_fn_proto_arg(dt_ctx *ctx, dt_node *n, const char *tag, const char *fname,
                               uint32_t i, const char *proto, const dt_type *t)
{
	char b[64], pb[48];
	dt_type_name(t, b, sizeof(b));
	const char *ct = dt_proto_argtype(fname, i, pb, sizeof(pb));
	if (ct != NULL && dt_streq(tag, "D_PROTO_ARG"))
		proto = ct;	/* the C type DTrace's prototype names */
	dt_error_node(ctx, n, tag, "%s( ) argument #%u is incompatible with "
	    "prototype:\n\tprototype: %s\n\t argument: %s", fname, i, proto,
	    b);
}

uint32_t dt_fn_nargs(const dt_node *n)
{
	uint32_t c = 0;
	for (const dt_node *a = n->n_args; a != NULL; a = a->n_next)
		c++;
	return c;
}

/*
 * Cook the arguments of call n.  An aggregation is left to the caller, but
 * as in DTrace a bare @name must be known (D_IDENT_UNDEF); @name[keys]
 * names it even if it is not (the caller may then say it is undefined).
 */
void dt_fn_cook_args(dt_ctx *ctx, dt_node *n)
{
	for (dt_node **a = &n->n_args; *a != NULL; a = &(*a)->n_next) {
		if ((*a)->n_kind == DT_N_AGG) {
			char key[80];
			dt_snprintf(key, sizeof(key), "@%s", (*a)->n_str);
			if ((*a)->n_a == NULL &&
			    dt_ident_lookup(&ctx->c_globals, key) == NULL)
				dt_error_node(ctx, *a, "D_IDENT_UNDEF", "failed to "
				    "resolve @%s: Unknown variable name",
				    (*a)->n_str);
			(*a)->n_type = ctx->c_t_aggfn;
			continue;
		}
		dt_node *nx = (*a)->n_next;
		*a = dt_sema_expr(ctx, *a);
		(*a)->n_next = nx;
	}
}

static dt_type *ret_type(dt_ctx *ctx, char r)
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

/*
 * A destructive action marks its clause (and so the program) destructive.
 * Whether it is allowed is not the compiler's call: as DTrace does, the
 * program compiles without -w and enabling it refuses it ("could not enable
 * tracing: Destructive actions not allowed", trace/enable.c).
 */
void dt_fn_check_destructive(dt_ctx *ctx, dt_node *n, const dt_func *fn)
{
	(void)n;
	if (fn->fn_class != DT_FN_DESTR)
		return;
	if (ctx->c_cl.cs_clause != NULL)
		ctx->c_cl.cs_destr = true;
}

/* What a call yields as a value: stack() a stack, sym() an address. */
static dt_type *call_type(dt_ctx *ctx, const dt_func *fn)
{
	if (fn->fn_class == DT_FN_ACT && (fn->fn_act == DT_ACT_STACK ||
	    fn->fn_act == DT_ACT_USTACK))
		return ctx->c_t_stack;
	if (fn->fn_class == DT_FN_ACT && (fn->fn_act == DT_ACT_SYM ||
	    fn->fn_act == DT_ACT_MOD || fn->fn_act == DT_ACT_USYM ||
	    fn->fn_act == DT_ACT_UADDR || fn->fn_act == DT_ACT_UMOD))
		return ctx->c_t_symaddr;
	if (fn->fn_class == DT_FN_AGG)	/* DTrace's dynamic type, as @a's */
		return ctx->c_t_aggfn;
	return ret_type(ctx, fn->fn_ret[0]);
}

/*
 * A call in an expression, checked as DTrace does: the arguments, then
 * the prototype (count, then types).  An action used as a value has the
 * type of its result (void, stack, symbol; an aggregating function's is
 * dynamic, like @a's) and operators check it as such; if the expression
 * type-checks, code generation reports the call (D_CG_EXPR).
 */
dt_node *dt_cook_call(dt_ctx *ctx, dt_node *n)
{
	const dt_func *fn = dt_func_lookup(ctx, n->n_str);
	dt_node *sel = fn == NULL ? dt_bag_cook_select(ctx, n) : NULL;
	if (sel != NULL)
		return sel;	/* first(bag->k), last(bag->k) */
	if (fn == NULL) {
		const dt_ident *id = dt_ident_lookup(&ctx->c_globals, n->n_str);
		const dif_builtin_t *bi = dif_builtin_lookup(n->n_str,
		    dt_strlen(n->n_str));
		if (id != NULL || bi != NULL)	/* a name, of another kind */
			dt_error_node(ctx, n, "D_FUNC_IDKIND", "%s '%s' may not "
			    "be referenced as a function", (id != NULL &&
			    id->id_kind == DT_IDK_ARRAY) || (bi != NULL &&
			    bi->bi_array) ? "associative array" : "scalar",
			    n->n_str);
		dt_error_node(ctx, n, "D_FUNC_UNDEF", "undefined function "
		    "name: %s", n->n_str);
	}
	dt_fn_cook_args(ctx, n);	/* an argument's own error comes first */
	dt_fn_check_len(ctx, n, fn, dt_fn_nargs(n));
	n->n_ident = NULL;
	n->n_ival = (int64_t)(fn - dt_funcs);
	uint32_t i = 0;
	char pb[48];
	if (fn->fn_subr >= 0) {		/* char * arguments as strings */
		for (dt_node **ap = &n->n_args; *ap != NULL;
		    ap = &(*ap)->n_next, i++) {
			char pr = dt_fn_proto_at(fn, i);
			bool null = dt_sema_is_const(*ap) && (*ap)->n_ival == 0;
			if (pr == 's' || (pr == 'S' && !null))
				*ap = dt_sema_as_string(ctx, *ap);
		}
	}
	i = 0;
	for (dt_node *a = n->n_args; a != NULL; a = a->n_next, i++) {
		if (fn->fn_subr < 0 && (dt_proto_argtype(fn->fn_name, i + 1, pb,
		    sizeof(pb)) == NULL || a->n_kind == DT_N_AGG))
			continue;	/* an action's own checks come later */
		if (!dt_fn_proto_ok(dt_fn_proto_at(fn, i), a))
			dt_fn_proto_arg(ctx, n, "D_PROTO_ARG", fn->fn_name,
			    i + 1, dt_fn_proto_text(dt_fn_proto_at(fn, i)),
			    a->n_type);
	}
	if (fn->fn_subr >= 0)
		dt_fn_check_destructive(ctx, n, fn);
	n->n_type = call_type(ctx, fn);
	return n;
}

const dt_func *dt_call_func(const dt_node *n)
{
	return &dt_funcs[n->n_ival];
}

/* Is n a (cooked) call of an action, not of a subroutine? */
bool dt_fn_is_action(const dt_node *n)
{
	return (n->n_kind == DT_N_CALL && (n->n_flags & DT_NF_COOKED) &&
	    n->n_ival >= 0 && (size_t)n->n_ival < sizeof(dt_funcs) /
	    sizeof(dt_funcs[0]) && dt_funcs[n->n_ival].fn_subr < 0);
}

/* DTrace's "positive constant": a non-zero integer constant, not negative. */
static bool posconst(const dt_node *a)
{
	return ((a->n_flags & DT_NF_CONST) && a->n_ival != 0 &&
	    (!a->n_type->ty_signed || a->n_ival > 0));
}

/*
 * The arguments of stack(n) and ustack(n[, strsize]), in DTrace's order
 * of checks: stack's count, then a positive constant frame count;
 * ustack's frame count, a non-negative constant string size, then its
 * count.  a is the first argument.  Returns the frame count.
 */
int64_t dt_fn_stack_args(dt_ctx *ctx, const dt_func *fn, dt_node *a)
{
	if (fn->fn_act == DT_ACT_STACK) {
		if (a->n_next != NULL)
			dt_error_node(ctx, a, "D_STACK_PROTO", "stack( ) "
			    "prototype mismatch: too many arguments");
		if (!posconst(a))
			dt_error_node(ctx, a, "D_STACK_SIZE", "stack( ) size must "
			    "be a non-zero positive integral constant expression");
		return a->n_ival;
	}
	if (!posconst(a))
		dt_error_node(ctx, a, "D_USTACK_FRAMES", "%s( ) argument #1 must "
		    "be a non-zero positive integer constant", fn->fn_name);
	dt_node *sz = a->n_next;
	if (sz != NULL && (!(sz->n_flags & DT_NF_CONST) ||
	    (sz->n_type->ty_signed && sz->n_ival < 0)))
		dt_error_node(ctx, sz, "D_USTACK_STRSIZE", "%s( ) argument #2 "
		    "must be a positive integer constant", fn->fn_name);
	if (sz != NULL && sz->n_next != NULL)
		dt_error_node(ctx, sz, "D_USTACK_PROTO", "%s( ) prototype "
		    "mismatch: too many arguments", fn->fn_name);
	return a->n_ival;
}

int64_t dt_fn_const_arg(dt_ctx *ctx, dt_node *a, const char *tag, const char *msg)
{
	if (!(a->n_flags & DT_NF_CONST) || a->n_ival <= 0)
		dt_error_node(ctx, a, tag, "%s", msg);
	return a->n_ival;
}

