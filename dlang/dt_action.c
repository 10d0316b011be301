/*
 * dlang/dt_action.c: clauses, statements, actions and aggregations.
 *
 * dt_sema_clause() is called by the parser for each finished clause.  It
 * fills one dt_clause of the program: the probe descriptions, the
 * predicate DIFO, and one dt_action per statement (DIF for each value
 * through dt_cg_expr).  Here live the function table (actions,
 * subroutines, aggregating functions), the argument checks of every
 * action and aggregating function with DTrace's tags and messages, and
 * DTrace's ordering rules for speculations:
 *
 *   aggregation   not after commit( ) (D_AGG_COMM) or speculate( ) (D_AGG_SPEC)
 *   destructive   not after speculate( )                       (D_ACT_SPEC)
 *   exit( )       not after speculate( )                      (D_EXIT_SPEC)
 *   commit( )     not after data recording (D_COMM_DREC) or speculate( )
 *   speculate( )  not after commit( ), speculate( ) or data recording
 *   data records  not after commit( )                         (D_DREC_COMM)
 *
 * Order: the function table, calls in expressions, ordering rules,
 * actions, aggregations, probe descriptions, clauses.
 */
#include "dlang/dt.h"

/*
 * Prototype letters: i integer, p pointer or integer, s string, S string
 * or 0, x anything traceable, a aggregation, f format string, o option
 * name.  The last letter repeats for extra arguments (up to fn_max).
 * Result letters: i int, l int64_t, u size_t, s string, v void, p void *.
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
	/* aggregating functions */
	{ "count", DT_FN_AGG, 0, 0, DT_AGG_COUNT, -1, "", "v" },
	{ "sum", DT_FN_AGG, 1, 1, DT_AGG_SUM, -1, "i", "v" },
	{ "avg", DT_FN_AGG, 1, 1, DT_AGG_AVG, -1, "i", "v" },
	{ "min", DT_FN_AGG, 1, 1, DT_AGG_MIN, -1, "i", "v" },
	{ "max", DT_FN_AGG, 1, 1, DT_AGG_MAX, -1, "i", "v" },
	{ "stddev", DT_FN_AGG, 1, 1, DT_AGG_STDDEV, -1, "i", "v" },
	{ "quantize", DT_FN_AGG, 1, 2, DT_AGG_QUANTIZE, -1, "i", "v" },
	{ "lquantize", DT_FN_AGG, 3, 4, DT_AGG_LQUANTIZE, -1, "i", "v" },
	{ "llquantize", DT_FN_AGG, 5, 5, DT_AGG_LLQUANTIZE, -1, "i", "v" },
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
};

const dt_func *
dt_func_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof (dt_funcs) / sizeof (dt_funcs[0]); i++)
		if (dt_streq(dt_funcs[i].fn_name, name))
			return (&dt_funcs[i]);
	return (NULL);
}

static char
proto_at(const dt_func *fn, uint32_t i)
{
	size_t n = dt_strlen(fn->fn_proto);
	if (n == 0)
		return ('x');
	return (fn->fn_proto[i < n ? i : n - 1]);
}

static const char *
proto_text(char p)
{
	switch (p) {
	case 'i': return ("int");
	case 'p': return ("pointer or integer");
	case 's': return ("string");
	case 'S': return ("string or NULL");
	case 'a': return ("aggregation");
	case 'f': return ("string constant");
	default: return ("any");
	}
}

static bool
proto_ok(char p, const dt_node *a)
{
	const dt_type *t = a->n_type;
	switch (p) {
	case 'i': return (dt_type_isint(t));
	case 'p': return (dt_type_isscalar(t));
	case 's': return (dt_type_isstring(t));
	case 'S': return (dt_type_isstring(t) || ((a->n_flags &
	    DT_NF_CONST) && a->n_ival == 0));
	default: return (true);
	}
}

static _Noreturn void
proto_len(dt_ctx *ctx, dt_node *n, const char *tag, const dt_func *fn,
    uint32_t got)
{
	const char *pre = fn->fn_min == fn->fn_max ? "" : got < fn->fn_min ?
	    "at least " : "no more than ";
	uint32_t exp = got < fn->fn_min ? fn->fn_min : fn->fn_max;
	dt_error_node(ctx, n, tag, "%s( ) prototype mismatch: %u arg%s "
	    "passed, %s%u expected", fn->fn_name, got, got == 1 ? "" : "s",
	    pre, exp);
}

static _Noreturn void
proto_arg(dt_ctx *ctx, dt_node *n, const char *tag, const char *fname,
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

static uint32_t
count_args(const dt_node *n)
{
	uint32_t c = 0;
	for (const dt_node *a = n->n_args; a != NULL; a = a->n_next)
		c++;
	return (c);
}

/* Cook argument i (aggregations are left alone for the caller). */
static dt_node *
cook_args(dt_ctx *ctx, dt_node *n)
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
	return (n);
}

static dt_type *
ret_type(dt_ctx *ctx, char r)
{
	switch (r) {
	case 's': return (ctx->c_t_string);
	case 'u': return (ctx->c_t_ulong);
	case 'l': return (ctx->c_t_long);
	case 'p': return (ctx->c_t_voidp);
	case 'v': return (ctx->c_t_void);
	default: return (ctx->c_t_int);
	}
}

static void
check_destructive(dt_ctx *ctx, dt_node *n, const dt_func *fn)
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
dt_node *dt_cook_call(dt_ctx *ctx, dt_node *n, bool stmt);
dt_node *
dt_cook_call(dt_ctx *ctx, dt_node *n, bool stmt)
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
	if ((fn->fn_class == DT_FN_ACT || (fn->fn_class == DT_FN_DESTR &&
	    fn->fn_subr < 0)) && !stmt)
		dt_error_node(ctx, n, "D_OP_ACT", "%s( ) is an action and may "
		    "not be used in an expression", fn->fn_name);
	uint32_t na = count_args(n);
	if (na < fn->fn_min || na > fn->fn_max)
		proto_len(ctx, n, "D_PROTO_LEN", fn, na);
	cook_args(ctx, n);
	n->n_ident = NULL;
	n->n_ival = (int64_t)(fn - dt_funcs);
	if (fn->fn_subr >= 0) {
		uint32_t i = 0;
		for (dt_node *a = n->n_args; a != NULL; a = a->n_next, i++)
			if (!proto_ok(proto_at(fn, i), a))
				proto_arg(ctx, n, "D_PROTO_ARG", fn->fn_name,
				    i + 1, proto_text(proto_at(fn, i)),
				    a->n_type);
		check_destructive(ctx, n, fn);
	}
	n->n_type = ret_type(ctx, fn->fn_ret[0]);
	return (n);
}

const dt_func *
dt_call_func(const dt_node *n)
{
	return (&dt_funcs[n->n_ival]);
}

/* ---- ordering rules ---- */

typedef enum { ORD_DREC, ORD_AGG, ORD_DESTR, ORD_EXIT, ORD_COMMIT,
    ORD_SPEC, ORD_NONE } ordkind;

static void
order_check(dt_ctx *ctx, dt_node *n, ordkind k)
{
	dt_clstate *s = &ctx->c_cl;
	switch (k) {
	case ORD_AGG:
		if (s->cs_commit)
			dt_error_node(ctx, n, "D_AGG_COMM", "aggregating "
			    "actions may not follow commit( )");
		if (s->cs_spec)
			dt_error_node(ctx, n, "D_AGG_SPEC", "aggregating "
			    "actions may not follow speculate( )");
		s->cs_datarec = true;
		return;
	case ORD_DESTR:
		if (s->cs_spec)
			dt_error_node(ctx, n, "D_ACT_SPEC", "destructive "
			    "actions may not follow speculate( )");
		break;
	case ORD_EXIT:
		if (s->cs_spec)
			dt_error_node(ctx, n, "D_EXIT_SPEC", "exit( ) may not "
			    "follow speculate( )");
		break;
	case ORD_COMMIT:
		if (s->cs_datarec)
			dt_error_node(ctx, n, "D_COMM_DREC", "commit( ) may "
			    "not follow data-recording action(s)");
		if (s->cs_spec)
			dt_error_node(ctx, n, "D_COMM_SPEC", "commit( ) may "
			    "not follow speculate( )");
		s->cs_commit = true;
		return;
	case ORD_SPEC:
		if (s->cs_commit)
			dt_error_node(ctx, n, "D_SPEC_COMM", "speculate( ) "
			    "may not follow commit( )");
		if (s->cs_spec)
			dt_error_node(ctx, n, "D_SPEC_SPEC", "speculate( ) "
			    "may not follow speculate( )");
		if (s->cs_datarec)
			dt_error_node(ctx, n, "D_SPEC_DREC", "speculate( ) "
			    "may not follow data-recording action(s)");
		s->cs_spec = true;
		return;
	case ORD_NONE:
		return;
	default:
		break;
	}
	if (s->cs_commit)
		dt_error_node(ctx, n, "D_DREC_COMM", "data-recording actions "
		    "may not follow commit( )");
	s->cs_datarec = true;
}

/* ---- actions ---- */

static dif_difo_t **
args_cg(dt_ctx *ctx, dt_node *first, uint32_t n)
{
	dif_difo_t **v = dt_alloc(ctx, sizeof (*v) * (n == 0 ? 1 : n));
	uint32_t i = 0;
	for (dt_node *a = first; a != NULL && i < n; a = a->n_next)
		v[i++] = dt_cg_expr(ctx, a);
	return (v);
}

static uint32_t
value_size(dt_ctx *ctx, const dt_type *t)
{
	if (dt_type_isstring(t))
		return (ctx->c_prog->dp_strsize);
	return (t->ty_size == 0 ? 8 : t->ty_size);
}

static dt_ident *
agg_find(dt_ctx *ctx, dt_node *a, const char *tag, const char *fname,
    uint32_t i)
{
	if (a->n_kind != DT_N_AGG || a->n_a != NULL)
		proto_arg(ctx, a, tag, fname, i, "aggregation", a->n_type);
	char key[80];
	dt_snprintf(key, sizeof (key), "@%s", a->n_str);
	dt_ident *id = dt_ident_lookup(&ctx->c_globals, key);
	if (id == NULL) {
		char badtag[40];
		dt_snprintf(badtag, sizeof (badtag), "%s", tag);
		size_t l = dt_strlen(badtag);
		/* D_X_AGGARG -> D_X_AGGBAD */
		if (l > 3)
			__builtin_memcpy(badtag + l - 3, "BAD", 3);
		const char *t = dt_streq(badtag, "D_PRINTA_AGGBAD") ?
		    "D_PRINTA_AGGBAD" : dt_streq(badtag, "D_CLEAR_AGGBAD") ?
		    "D_CLEAR_AGGBAD" : dt_streq(badtag, "D_TRUNC_AGGBAD") ?
		    "D_TRUNC_AGGBAD" : "D_NORMALIZE_AGGBAD";
		dt_error_node(ctx, a, t, "undefined aggregation: @%s",
		    a->n_str);
	}
	return (id);
}

static DT_NOINLINE void
act_trace(dt_ctx *ctx, dt_node *n, dt_action *ac)
{
	dt_node *a = n->n_args;
	if (a->n_kind == DT_N_AGG)
		dt_error_node(ctx, n, "D_TRACE_AGG", "trace( ) may not be "
		    "applied to an aggregation");
	if (a->n_type->ty_kind == DT_TK_VOID)
		dt_error_node(ctx, n, "D_TRACE_VOID", "trace( ) may not be "
		    "applied to a void expression");
	if (a->n_type->ty_kind == DT_TK_STACK ||
	    a->n_type->ty_kind == DT_TK_SYMADDR)
		dt_error_node(ctx, n, "D_TRACE_DYN", "trace( ) may not be "
		    "applied to a translated pointer");
	ac->ac_args = args_cg(ctx, a, 1);
	ac->ac_nargs = 1;
	ac->ac_size = value_size(ctx, a->n_type);
}

static DT_NOINLINE void
act_aggs(dt_ctx *ctx, dt_node *n, dt_action *ac, dt_node *first,
    const char *tag, uint32_t argno)
{
	uint32_t na = 0;
	for (dt_node *a = first; a != NULL; a = a->n_next)
		na++;
	ac->ac_aggs = dt_alloc(ctx, sizeof (uint32_t) * (na == 0 ? 1 : na));
	for (dt_node *a = first; a != NULL; a = a->n_next, argno++) {
		dt_ident *id = agg_find(ctx, a, tag, n->n_str, argno);
		ac->ac_aggs[ac->ac_naggs++] = id->id_aggidx;
	}
}

static DT_NOINLINE void
act_printa(dt_ctx *ctx, dt_node *n, dt_action *ac)
{
	dt_node *first = n->n_args;
	uint32_t argno = 1;
	if (first->n_kind == DT_N_STR) {
		if (first->n_next == NULL)
			dt_error_node(ctx, n, "D_PRINTA_PROTO", "printa( ) "
			    "prototype mismatch: 1 arg passed, at least 2 "
			    "expected");
		first = first->n_next;
		argno = 2;
	}
	act_aggs(ctx, n, ac, first, "D_PRINTA_AGGARG", argno);
	if (first != n->n_args) {
		ac->ac_fmt = dt_printf_create(ctx, n, "printa", n->n_args,
		    first, true);
	}
}

static int64_t
const_arg(dt_ctx *ctx, dt_node *a, const char *tag, const char *msg)
{
	if (!(a->n_flags & DT_NF_CONST) || a->n_ival <= 0)
		dt_error_node(ctx, a, tag, "%s", msg);
	return (a->n_ival);
}

static DT_NOINLINE void
act_scalar_arg(dt_ctx *ctx, dt_node *n, dt_action *ac, dt_node *a,
    const char *tag, uint32_t argno)
{
	if (!dt_type_isscalar(a->n_type))
		dt_error_node(ctx, n, tag, "%s( ) argument #%u must be of "
		    "scalar type", n->n_str, argno);
	ac->ac_args = args_cg(ctx, a, 1);
	ac->ac_nargs = 1;
}

static DT_NOINLINE void
act_aggop(dt_ctx *ctx, dt_node *n, dt_action *ac, uint32_t na)
{
	const char *arg = "D_CLEAR_AGGARG", *sc = "D_TRUNC_SCALAR";
	if (ac->ac_kind == DT_ACT_TRUNC)
		arg = "D_TRUNC_AGGARG";
	if (ac->ac_kind == DT_ACT_NORMALIZE ||
	    ac->ac_kind == DT_ACT_DENORMALIZE) {
		arg = "D_NORMALIZE_AGGARG";
		sc = "D_NORMALIZE_SCALAR";
	}
	dt_ident *id = agg_find(ctx, n->n_args, arg, n->n_str, 1);
	ac->ac_aggs = dt_alloc(ctx, sizeof (uint32_t));
	ac->ac_aggs[0] = id->id_aggidx;
	ac->ac_naggs = 1;
	if (na == 2)
		act_scalar_arg(ctx, n, ac, n->n_args->n_next, sc, 2);
}

/* Map a function to its proto-length tag (DTrace names some per action). */
static const char *
len_tag(const dt_func *fn)
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

static ordkind
act_order(dt_actkind k, dt_fnclass c)
{
	if (c == DT_FN_DESTR)
		return (ORD_DESTR);
	switch (k) {
	case DT_ACT_EXIT: return (ORD_EXIT);
	case DT_ACT_COMMIT: return (ORD_COMMIT);
	case DT_ACT_SPECULATE: return (ORD_SPEC);
	case DT_ACT_DISCARD: return (ORD_NONE);
	default: return (ORD_DREC);
	}
}

static DT_NOINLINE void
act_simple_int(dt_ctx *ctx, dt_node *n, dt_action *ac, const dt_func *fn)
{
	uint32_t i = 0;
	for (dt_node *a = n->n_args; a != NULL; a = a->n_next, i++)
		if (!proto_ok(proto_at(fn, i), a) || a->n_kind == DT_N_AGG)
			proto_arg(ctx, n, "D_PROTO_ARG", fn->fn_name, i + 1,
			    proto_text(proto_at(fn, i)), a->n_type);
	ac->ac_nargs = count_args(n);
	ac->ac_args = args_cg(ctx, n->n_args, ac->ac_nargs);
	ac->ac_size = ac->ac_nargs == 0 ? 0 : 8;
}

/* A statement that calls an action. */
static void
action(dt_ctx *ctx, dt_node *n, const dt_func *fn)
{
	uint32_t na = count_args(n);
	if (na < fn->fn_min || na > fn->fn_max)
		proto_len(ctx, n, len_tag(fn), fn, na);
	check_destructive(ctx, n, fn);
	cook_args(ctx, n);
	order_check(ctx, n, act_order((dt_actkind)fn->fn_act, fn->fn_class));
	dt_action *ac = dt_action_add(ctx, (dt_actkind)fn->fn_act, n);
	dt_node *a = n->n_args;
	switch (fn->fn_act) {
	case DT_ACT_TRACE:
		act_trace(ctx, n, ac);
		break;
	case DT_ACT_PRINTF: case DT_ACT_SYSTEM:
		ac->ac_fmt = dt_printf_create(ctx, n, fn->fn_name, a,
		    a->n_next, false);
		ac->ac_nargs = na - 1;
		ac->ac_args = args_cg(ctx, a->n_next, na - 1);
		break;
	case DT_ACT_PRINTA:
		act_printa(ctx, n, ac);
		break;
	case DT_ACT_STACK: case DT_ACT_USTACK:
		if (a != NULL)
			ac->ac_arg = (uint64_t)const_arg(ctx, a, fn->fn_act ==
			    DT_ACT_STACK ? "D_STACK_SIZE" : "D_USTACK_FRAMES",
			    fn->fn_act == DT_ACT_STACK ? "stack( ) argument "
			    "#1 must be a non-zero positive integral constant "
			    "expression" : "ustack( ) argument #1 must be a "
			    "non-zero positive integral constant expression");
		ac->ac_size = 8 * (uint32_t)(ac->ac_arg == 0 ? 20 :
		    (ac->ac_arg > 100 ? 100 : ac->ac_arg));
		break;
	case DT_ACT_TRACEMEM:
		if (!dt_type_isscalar(a->n_type))
			proto_arg(ctx, n, "D_TRACEMEM_ADDR", "tracemem", 1,
			    "pointer or integer", a->n_type);
		ac->ac_arg = (uint64_t)const_arg(ctx, a->n_next,
		    "D_TRACEMEM_SIZE", "tracemem( ) argument #2 must be a "
		    "non-zero positive integral constant expression");
		ac->ac_args = args_cg(ctx, a, 1);
		ac->ac_nargs = 1;
		ac->ac_size = (uint32_t)ac->ac_arg;
		break;
	case DT_ACT_CLEAR: case DT_ACT_TRUNC: case DT_ACT_NORMALIZE:
	case DT_ACT_DENORMALIZE:
		act_aggop(ctx, n, ac, na);
		break;
	case DT_ACT_SETOPT:
		for (dt_node *o = a; o != NULL; o = o->n_next)
			if (o->n_kind != DT_N_STR)
				proto_arg(ctx, n, "D_PROTO_ARG", "setopt",
				    o == a ? 1 : 2, "string constant",
				    o->n_type);
		ac->ac_nargs = na;
		ac->ac_args = args_cg(ctx, a, na);
		break;
	default:	/* exit, sym/mod, speculate family, destructive */
		act_simple_int(ctx, n, ac, fn);
		break;
	}
}

/* ---- aggregations ---- */

static const char *
agg_fname(dt_aggfunc f)
{
	static const char *const names[] = { "", "count", "sum", "avg",
	    "min", "max", "stddev", "quantize", "lquantize", "llquantize" };
	return (names[f]);
}

static int64_t
agg_param(dt_ctx *ctx, dt_node *a, const char *typetag, const char *msg)
{
	if (!(a->n_flags & DT_NF_CONST))
		dt_error_node(ctx, a, typetag, "%s", msg);
	return (a->n_ival);
}

static void
lquantize_params(dt_ctx *ctx, dt_node *f, int64_t *p)
{
	dt_node *a = f->n_args->n_next;
	p[0] = agg_param(ctx, a, "D_LQUANT_BASETYPE", "lquantize( ) argument "
	    "#1 must be a constant");
	if (p[0] != (int32_t)p[0])
		dt_error_node(ctx, a, "D_LQUANT_BASEVAL", "lquantize( ) "
		    "argument #1 must be a 32-bit quantity");
	a = a->n_next;
	p[1] = agg_param(ctx, a, "D_LQUANT_LIMTYPE", "lquantize( ) argument "
	    "#2 must be a constant");
	if (p[1] != (int32_t)p[1])
		dt_error_node(ctx, a, "D_LQUANT_LIMVAL", "lquantize( ) "
		    "argument #2 must be a 32-bit quantity");
	if (p[1] <= p[0])
		dt_error_node(ctx, a, "D_LQUANT_MISMATCH", "lquantize( ) base "
		    "(argument #1) must be less than limit (argument #2)");
	p[2] = 1;
	if ((a = a->n_next) != NULL) {
		if (!(a->n_flags & DT_NF_CONST) || a->n_ival <= 0)
			dt_error_node(ctx, a, "D_LQUANT_STEPTYPE", "lquantize( ) "
			    "argument #3 must be a non-zero positive integer "
			    "constant");
		p[2] = a->n_ival;
		if (p[2] != (uint16_t)p[2])
			dt_error_node(ctx, a, "D_LQUANT_STEPVAL", "lquantize( ) "
			    "argument #3 must be a 16-bit quantity");
	}
	int64_t levels = (p[1] - p[0]) / p[2];
	if (levels == 0)
		dt_error_node(ctx, f, "D_LQUANT_STEPLARGE", "lquantize( ) step "
		    "(argument #3) too large: must have at least one "
		    "quantization level");
	if (levels > UINT16_MAX)
		dt_error_node(ctx, f, "D_LQUANT_STEPSMALL", "lquantize( ) step "
		    "(argument #3) too small: number of quantization levels "
		    "must be a 16-bit quantity");
}

static void
llquantize_params(dt_ctx *ctx, dt_node *f, int64_t *p)
{
	static const char *const what[] = { "factor", "low magnitude",
	    "high magnitude", "steps" };
	static const char *const ttag[] = { "D_LLQUANT_FACTORTYPE",
	    "D_LLQUANT_LOWTYPE", "D_LLQUANT_HIGHTYPE", "D_LLQUANT_NSTEPTYPE" };
	static const char *const vtag[] = { "D_LLQUANT_FACTORVAL",
	    "D_LLQUANT_LOWVAL", "D_LLQUANT_HIGHVAL", "D_LLQUANT_NSTEPVAL" };
	dt_node *a = f->n_args->n_next;
	for (int i = 0; i < 4; i++, a = a->n_next) {
		if (!(a->n_flags & DT_NF_CONST) || a->n_ival < 0)
			dt_error_node(ctx, a, ttag[i], "llquantize( ) argument "
			    "#%d must be a non-negative integer constant",
			    i + 1);
		p[i] = a->n_ival;
		if (p[i] > UINT16_MAX)
			dt_error_node(ctx, a, vtag[i], "llquantize( ) argument "
			    "#%d (%s) must be a 16-bit quantity", i + 1,
			    what[i]);
	}
	if (p[0] < 2)
		dt_error_node(ctx, f, "D_LLQUANT_FACTORSMALL", "llquantize( ) "
		    "argument #1 (factor) must be two or more");
	if (p[2] < p[1])
		dt_error_node(ctx, f, "D_LLQUANT_MAGRANGE", "llquantize( ) "
		    "argument #3 (high magnitude) must be greater than or "
		    "equal to argument #2 (low magnitude)");
	if (p[3] < p[0] || p[3] % p[0] != 0)
		dt_error_node(ctx, f, "D_LLQUANT_FACTOREVEN", "llquantize( ) "
		    "argument #1 (factor) must evenly divide argument #4 "
		    "(steps)");
	uint64_t v = 1;
	for (int64_t i = 0; i <= p[2]; i++) {
		if (v > UINT64_MAX / (uint64_t)p[0])
			dt_error_node(ctx, f, "D_LLQUANT_MAGTOOBIG",
			    "llquantize( ) argument #3 (high magnitude) "
			    "is too large for the factor");
		v *= (uint64_t)p[0];
	}
}

static void
agg_match(dt_ctx *ctx, dt_node *f, dt_aggdesc *ag, dt_aggfunc fn,
    const int64_t *p, uint32_t np, const char *name)
{
	if (ag->ag_func != fn)
		dt_error_node(ctx, f, "D_AGG_REDEF", "aggregation redefined: "
		    "@%s\n\t current: @%s = %s( )\n\tprevious: @%s = %s( )",
		    name, name, agg_fname(fn), name, agg_fname(ag->ag_func));
	static const char *const ltag[] = { "D_LQUANT_MATCHBASE",
	    "D_LQUANT_MATCHLIM", "D_LQUANT_MATCHSTEP" };
	static const char *const lwhat[] = { "base", "limit", "step" };
	for (uint32_t i = 0; i < np; i++) {
		if (ag->ag_params[i] == p[i])
			continue;
		if (fn == DT_AGG_LQUANTIZE)
			dt_error_node(ctx, f, ltag[i], "lquantize( ) %s "
			    "(argument #%u) doesn't match previous declaration: "
			    "expected %lld, found %lld", lwhat[i], i + 1,
			    (long long)ag->ag_params[i], (long long)p[i]);
		dt_error_node(ctx, f, "D_LLQUANT_FACTORMATCH", "llquantize( ) "
		    "argument #%u doesn't match previous declaration: "
		    "expected %lld, found %lld", i + 1,
		    (long long)ag->ag_params[i], (long long)p[i]);
	}
}

static void
agg_keys(dt_ctx *ctx, dt_node *lhs, dt_aggdesc *ag, bool fresh)
{
	uint32_t nk = 0;
	for (dt_node *k = lhs->n_args; k != NULL; k = k->n_next, nk++) {
		const dt_type *t = k->n_type;
		if (nk == DT_MAXKEYS)
			dt_error_node(ctx, k, "D_AGG_MDIM", "@%s has too many "
			    "keys (limit %d)", lhs->n_str, DT_MAXKEYS);
		if (!dt_type_isscalar(t) && !dt_type_isstring(t) &&
		    t->ty_kind != DT_TK_STACK && t->ty_kind != DT_TK_SYMADDR)
			dt_error_node(ctx, k, "D_KEY_TYPE", "@%s[ ] key #%u is "
			    "of an invalid type", lhs->n_str, nk + 1);
		dt_keytype kt = { dt_type_isstring(t), (uint8_t)(t->ty_size >
		    8 ? 8 : t->ty_size), t->ty_signed, DT_KEY_VALUE, 0 };
		if (t->ty_kind == DT_TK_STACK || t->ty_kind == DT_TK_SYMADDR) {
			kt.kt_kind = (uint8_t)k->n_ival;
			kt.kt_size = 8;
			kt.kt_frames = k->n_b == NULL ? 0 :
			    (uint32_t)k->n_b->n_ival;
		}
		if (fresh) {
			ag->ag_keys[nk] = kt;
		} else if (nk < ag->ag_nkeys &&
		    (ag->ag_keys[nk].kt_string != kt.kt_string ||
		    ag->ag_keys[nk].kt_kind != kt.kt_kind)) {
			char b[64];
			dt_type_name(t, b, sizeof (b));
			static const char *const kinds[] = { "integer",
			    "stack", "ustack", "symbol", "module" };
			if (t->ty_kind == DT_TK_STACK || t->ty_kind ==
			    DT_TK_SYMADDR)
				dt_snprintf(b, sizeof (b), "%s", kinds[kt.kt_kind]);
			dt_error_node(ctx, k, "D_PROTO_ARG", "@%s[ ] key #%u is "
			    "incompatible with prototype:\n\tprototype: %s\n\t "
			    "argument: %s", lhs->n_str, nk + 1,
			    ag->ag_keys[nk].kt_string ? "string" :
			    kinds[ag->ag_keys[nk].kt_kind], b);
		}
	}
	if (fresh)
		ag->ag_nkeys = nk;
	else if (nk != ag->ag_nkeys)
		dt_error_node(ctx, lhs, "D_PROTO_LEN", "@%s[ ] prototype "
		    "mismatch: %u key%s passed, %u expected", lhs->n_str, nk,
		    nk == 1 ? "" : "s", ag->ag_nkeys);
}

/*
 * stack(), ustack(), func(), sym() and mod() as aggregation keys: the
 * framework records the stack, or the key is a pc printed as a symbol.
 * Marks the node (n_ival = dt_keykind, n_c = frames) and returns true.
 */
static bool
agg_special_key(dt_ctx *ctx, dt_node *k)
{
	if (k->n_kind != DT_N_CALL)
		return (false);
	const dt_func *fn = dt_func_lookup(k->n_str);
	if (fn == NULL || fn->fn_class != DT_FN_ACT ||
	    (fn->fn_act != DT_ACT_STACK && fn->fn_act != DT_ACT_USTACK &&
	    fn->fn_act != DT_ACT_SYM && fn->fn_act != DT_ACT_MOD))
		return (false);
	uint32_t na = count_args(k);
	if (na < fn->fn_min || na > fn->fn_max)
		proto_len(ctx, k, len_tag(fn), fn, na);
	cook_args(ctx, k);
	dt_node *a = k->n_args;
	k->n_flags |= DT_NF_COOKED;
	if (fn->fn_act == DT_ACT_STACK || fn->fn_act == DT_ACT_USTACK) {
		k->n_ival = fn->fn_act == DT_ACT_STACK ? DT_KEY_STACK :
		    DT_KEY_USTACK;
		k->n_b = a == NULL ? NULL : dt_node_int(ctx, a, const_arg(ctx,
		    a, fn->fn_act == DT_ACT_STACK ? "D_STACK_SIZE" :
		    "D_USTACK_FRAMES", "stack( ) argument #1 must be a non-zero "
		    "positive integral constant expression"), ctx->c_t_int);
		k->n_type = ctx->c_t_stack;
		return (true);
	}
	if (!dt_type_isscalar(a->n_type))
		proto_arg(ctx, k, "D_PROTO_ARG", fn->fn_name, 1,
		    "pointer or integer", a->n_type);
	k->n_ival = fn->fn_act == DT_ACT_SYM ? DT_KEY_SYM : DT_KEY_MOD;
	k->n_type = ctx->c_t_symaddr;
	return (true);
}

/* @name[keys] = func(args); */
static void
aggregation(dt_ctx *ctx, dt_node *asg)
{
	dt_node *lhs = asg->n_a, *f = asg->n_b;
	const dt_func *fn = f->n_kind == DT_N_CALL ?
	    dt_func_lookup(f->n_str) : NULL;
	if (asg->n_op != DT_T_ASGN || fn == NULL || fn->fn_class != DT_FN_AGG)
		dt_error_node(ctx, asg, "D_AGG_FUNC", "@%s must be assigned "
		    "the result of an aggregating function", lhs->n_str);
	uint32_t na = count_args(f);
	if (na < fn->fn_min || na > fn->fn_max)
		proto_len(ctx, f, "D_PROTO_LEN", fn, na);
	cook_args(ctx, f);
	if (na > 0 && (f->n_args->n_kind == DT_N_AGG ||
	    !dt_type_isscalar(f->n_args->n_type)))
		dt_error_node(ctx, f, "D_AGG_SCALAR", "%s( ) argument #1 must "
		    "be of scalar type", fn->fn_name);
	for (dt_node **k = &lhs->n_args; *k != NULL; k = &(*k)->n_next) {
		dt_node *nx = (*k)->n_next;
		if (!agg_special_key(ctx, *k))
			*k = dt_sema_expr(ctx, *k);
		(*k)->n_next = nx;
	}
	int64_t p[4] = { 0, 0, 0, 0 };
	uint32_t np = 0;
	if (fn->fn_act == DT_AGG_LQUANTIZE) {
		lquantize_params(ctx, f, p);
		np = 3;
	} else if (fn->fn_act == DT_AGG_LLQUANTIZE) {
		llquantize_params(ctx, f, p);
		np = 4;
	} else if (fn->fn_act == DT_AGG_QUANTIZE && na == 2) {
		if (!dt_type_isscalar(f->n_args->n_next->n_type))
			dt_error_node(ctx, f, "D_AGG_SCALAR", "quantize( ) "
			    "argument #2 must be of scalar type");
	}
	char key[80];
	dt_snprintf(key, sizeof (key), "@%s", lhs->n_str);
	dt_ident *id = dt_ident_lookup(&ctx->c_globals, key);
	bool fresh = id == NULL;
	if (fresh) {
		id = dt_ident_insert(ctx, &ctx->c_globals,
		    dt_strdup(ctx, key, dt_strlen(key)), DT_IDK_AGG);
		id->id_aggidx = dt_agg_add(ctx, lhs->n_str);
	}
	dt_aggdesc *ag = &ctx->c_prog->dp_aggs[id->id_aggidx];
	if (fresh) {
		ag->ag_func = (dt_aggfunc)fn->fn_act;
		for (uint32_t i = 0; i < np; i++)
			ag->ag_params[i] = p[i];
		ag->ag_nparams = np;
	} else {
		agg_match(ctx, f, ag, (dt_aggfunc)fn->fn_act, p, np,
		    lhs->n_str);
	}
	agg_keys(ctx, lhs, ag, fresh);
	order_check(ctx, asg, ORD_AGG);
	dt_action *ac = dt_action_add(ctx, DT_ACT_AGG, asg);
	ac->ac_aggs = dt_alloc(ctx, sizeof (uint32_t));
	ac->ac_aggs[0] = id->id_aggidx;
	ac->ac_naggs = 1;
	uint32_t nv = fn->fn_act == DT_AGG_LQUANTIZE ||
	    fn->fn_act == DT_AGG_LLQUANTIZE ? 1 : na;
	ac->ac_nargs = ag->ag_nkeys + nv;
	ac->ac_args = dt_alloc(ctx, sizeof (dif_difo_t *) * (ac->ac_nargs +
	    1));
	uint32_t i = 0;
	for (dt_node *k = lhs->n_args; k != NULL; k = k->n_next) {
		if (k->n_type->ty_kind == DT_TK_STACK)
			ac->ac_args[i++] = NULL;	/* recorded by the framework */
		else if (k->n_type->ty_kind == DT_TK_SYMADDR)
			ac->ac_args[i++] = dt_cg_expr(ctx, k->n_args);
		else
			ac->ac_args[i++] = dt_cg_expr(ctx, k);
	}
	for (dt_node *v = f->n_args; v != NULL && i < ac->ac_nargs;
	    v = v->n_next)
		ac->ac_args[i++] = dt_cg_expr(ctx, v);
}

/* ---- statements ---- */

static void statement(dt_ctx *ctx, dt_node *s);

/*
 * if/else, as DTrace does it: the clause is split.  The condition is saved
 * in a clause-local "this->__ifN" (1: then, 2: else; 0 if this part of the
 * clause did not run), and the statements of each branch, and those after
 * the if, go into new clauses on the same probes whose predicates test it.
 * Clause-locals start at zero on each firing and live across the clauses
 * of that firing, so a split clause runs exactly when the original code
 * would.  Splits are made lazily, when a branch first adds an action, so
 * an empty branch makes no clause.  A constant condition compiles only the
 * live branch.
 */
static dt_node *
if_test(dt_ctx *ctx, dt_node *where, const char *var, dt_tokkind op,
    int64_t v)
{
	dt_node *t = dt_node_new(ctx, DT_N_THIS, &ctx->c_tok);
	t->n_line = where->n_line;
	t->n_col = where->n_col;
	t->n_str = var;
	dt_node *n = dt_node_new(ctx, DT_N_OP2, &ctx->c_tok);
	n->n_line = where->n_line;
	n->n_col = where->n_col;
	n->n_op = op;
	n->n_a = t;
	n->n_b = dt_node_int(ctx, where, v, ctx->c_t_int);
	return (n);
}

static void
stmt_if(dt_ctx *ctx, dt_node *s)
{
	dt_node *c = dt_sema_expr(ctx, s->n_a);
	if (!dt_type_isscalar(c->n_type) && !dt_type_isstring(c->n_type))
		dt_error_node(ctx, c, "D_OP_SCALAR", "if condition must be of "
		    "scalar type");
	if (c->n_flags & DT_NF_CONST) {
		dt_node *live = c->n_ival != 0 ? s->n_b : s->n_c;
		if (live != NULL)
			statement(ctx, live);
		return;
	}
	if (ctx->c_cl.cs_spec)
		dt_error_node(ctx, s, "D_ACT_SPEC", "if statements may not "
		    "follow speculate( ) in Sonde");
	char name[24];
	dt_snprintf(name, sizeof (name), "__if%u", ++ctx->c_nifs);
	const char *var = dt_strdup(ctx, name, dt_strlen(name));
	dt_node *sel = dt_node_new(ctx, DT_N_OP3, &ctx->c_tok);
	sel->n_line = s->n_line;
	sel->n_col = s->n_col;
	sel->n_a = c;
	sel->n_b = dt_node_int(ctx, s, 1, ctx->c_t_int);
	sel->n_c = dt_node_int(ctx, s, 2, ctx->c_t_int);
	dt_node *asg = if_test(ctx, s, var, DT_T_ASGN, 0);
	asg->n_b = sel;
	asg = dt_sema_expr(ctx, asg);
	dt_action *ac = dt_action_add(ctx, DT_ACT_EXPR, s);
	ac->ac_args = args_cg(ctx, asg, 1);
	ac->ac_nargs = 1;
	ctx->c_cl.cs_pending = if_test(ctx, s, var, DT_T_EQ, 1);
	statement(ctx, s->n_b);
	if (s->n_c != NULL) {
		ctx->c_cl.cs_pending = if_test(ctx, s, var, DT_T_EQ, 2);
		statement(ctx, s->n_c);
	}
	ctx->c_cl.cs_pending = if_test(ctx, s, var, DT_T_NE, 0);
}

/* Start the next clause of a split: same probes, the pending predicate. */
void
dt_clause_split(dt_ctx *ctx)
{
	dt_clstate saved = ctx->c_cl;
	dt_probedesc *pds = saved.cs_clause->cl_probes;
	uint32_t np = saved.cs_clause->cl_nprobes;
	dt_clause_end(ctx);
	dt_clause_begin(ctx, saved.cs_src);
	dt_clstate *cs = &ctx->c_cl;
	cs->cs_src = saved.cs_src;
	cs->cs_commit = saved.cs_commit;
	cs->cs_spec = saved.cs_spec;
	cs->cs_datarec = saved.cs_datarec;
	dt_clause *cl = cs->cs_clause;
	cl->cl_probes = pds;
	cl->cl_nprobes = np;
	cl->cl_pred = dt_cg_expr(ctx, dt_sema_expr(ctx, saved.cs_pending));
}

static void
statement(dt_ctx *ctx, dt_node *s)
{
	if (s->n_kind == DT_N_BLOCK) {
		for (dt_node *c = s->n_args; c != NULL; c = c->n_next)
			statement(ctx, c);
		return;
	}
	if (s->n_kind == DT_N_IF) {
		stmt_if(ctx, s);
		return;
	}
	dt_node *e = s->n_a;
	if (e->n_kind == DT_N_CALL) {
		const dt_func *fn = dt_func_lookup(e->n_str);
		if (fn != NULL && (fn->fn_class == DT_FN_ACT ||
		    (fn->fn_class == DT_FN_DESTR && fn->fn_subr < 0))) {
			action(ctx, e, fn);
			return;
		}
	}
	if (e->n_kind == DT_N_OP2 && e->n_a->n_kind == DT_N_AGG) {
		aggregation(ctx, e);
		return;
	}
	e = dt_sema_expr(ctx, e);
	dt_action *ac = dt_action_add(ctx, DT_ACT_EXPR, s);
	ac->ac_args = args_cg(ctx, e, 1);
	ac->ac_nargs = 1;
}

/* ---- probe descriptions ---- */

static void
pd_field(dt_ctx *ctx, dt_node *p, char *dst, size_t cap, const char *s,
    size_t n)
{
	if (n >= cap)
		dt_error_node(ctx, p, "D_PDESC_INVAL", "invalid probe "
		    "description \"%s\": Name too long", p->n_str);
	__builtin_memcpy(dst, s, n);
	dst[n] = '\0';
}

static void
pdesc_parse(dt_ctx *ctx, dt_node *p, dt_probedesc *pd)
{
	const char *f[4];
	size_t len[4];
	int nf = 0;
	const char *s = p->n_str, *start = s;
	for (;; s++) {
		if (*s == '\\' && s[1] != '\0') {
			s++;
			continue;
		}
		if (*s != ':' && *s != '\0')
			continue;
		if (nf == 4)
			dt_error_node(ctx, p, "D_PDESC_INVAL", "invalid probe "
			    "description \"%s\": Overspecified probe "
			    "description", p->n_str);
		f[nf] = start;
		len[nf++] = (size_t)(s - start);
		start = s + 1;
		if (*s == '\0')
			break;
	}
	const char *fv[4] = { "", "", "", "" };
	size_t lv[4] = { 0, 0, 0, 0 };
	for (int i = 0; i < nf; i++) {
		fv[4 - nf + i] = f[i];
		lv[4 - nf + i] = len[i];
	}
	pd_field(ctx, p, pd->pd_prov, DT_PROVNAMELEN, fv[0], lv[0]);
	pd_field(ctx, p, pd->pd_mod, DT_MODNAMELEN, fv[1], lv[1]);
	pd_field(ctx, p, pd->pd_func, DT_FUNCNAMELEN, fv[2], lv[2]);
	pd_field(ctx, p, pd->pd_name, DT_NAMELEN, fv[3], lv[3]);
	pd->pd_line = p->n_line;
	const dt_opts *o = ctx->c_opts;
	if (o->o_match != NULL && !ctx->c_zdefs &&
	    o->o_match(o->o_match_arg, pd) == 0)
		dt_error_node(ctx, p, "D_PDESC_ZERO", "probe description "
		    "%s:%s:%s:%s does not match any probes", pd->pd_prov,
		    pd->pd_mod, pd->pd_func, pd->pd_name);
}

/* ---- clauses ---- */

void
dt_sema_clause(dt_ctx *ctx, dt_node *c)
{
	dt_clause_begin(ctx, c);
	ctx->c_cl.cs_src = c;
	dt_clause *cl = ctx->c_cl.cs_clause;
	uint32_t n = 0;
	for (dt_node *p = c->n_args; p != NULL; p = p->n_next)
		n++;
	cl->cl_probes = dt_alloc(ctx, sizeof (dt_probedesc) * n);
	for (dt_node *p = c->n_args; p != NULL; p = p->n_next)
		pdesc_parse(ctx, p, &cl->cl_probes[cl->cl_nprobes++]);
	if (c->n_a != NULL) {
		dt_node *pr = dt_sema_expr(ctx, c->n_a);
		if (!dt_type_isscalar(pr->n_type))
			dt_error_node(ctx, pr, "D_PRED_SCALAR", "predicate "
			    "result must be of scalar type");
		cl->cl_pred = dt_cg_expr(ctx, pr);
	}
	for (dt_node *s = c->n_b; s != NULL; s = s->n_next)
		statement(ctx, s);
	dt_clause_end(ctx);
}
