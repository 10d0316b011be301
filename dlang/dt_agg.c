/*
 * dlang/dt_agg.c: aggregations, "@name[keys] = func(args);".
 *
 * Checks the aggregating function and its arguments as DTrace does
 * (D_AGG_*, D_LQUANT_*, D_LLQUANT_*), keeps each aggregation's description
 * in the program (function, key types, quantization parameters) and
 * insists that later uses agree with the first, cooks the special keys
 * stack(), ustack(), func(), sym() and mod(), and emits the DT_ACT_AGG
 * action with one DIFO per key and per value argument.  The checks come
 * in DTrace's order (see dt_aggregation): what DTrace finds while cooking
 * the statement (the call, its prototype, D_AGG_FUNC, D_AGG_REDEF, the
 * keys) before what its compiler finds afterwards (D_AGG_SCALAR, the
 * quantization parameters, the increment).  The key types are also kept
 * in the aggregation's identifier, for printa( ) of several aggregations.
 *
 * Tests: tests/dlang/aggregations.S, agg_*.S; tests/d/err.D_AGG_*.d,
 *        err.D_*QUANT_*.d; tests/d/aggs
 */
#include "dlang/dt.h"

static const char *agg_fname(dt_aggfunc f)
{
	static const char *const names[] = { "", "count", "sum", "avg",
	    "min", "max", "stddev", "quantize", "lquantize", "llquantize" };
	return names[f];
}

/* llquantize( )'s parameters, as DTrace's messages name them. */
static const char *const llq_what[] = { "factor", "low magnitude",
    "high magnitude", "linear steps per magnitude" };

static int64_t agg_param(dt_ctx *ctx, dt_node *a, const char *typetag, const char *msg)
{
	if (!(a->n_flags & DT_NF_CONST))
		dt_error_node(ctx, a, typetag, "%s", msg);
	return a->n_ival;
}

static void lquantize_params(dt_ctx *ctx, dt_node *f, int64_t *p)
{
	dt_node *a = f->n_args->n_next;
	p[0] = agg_param(ctx, a, "D_LQUANT_BASETYPE", "lquantize( ) argument "
	    "#1 must be an integer constant");
	if (p[0] != (int32_t)p[0])
		dt_error_node(ctx, a, "D_LQUANT_BASEVAL", "lquantize( ) "
		    "argument #1 must be a 32-bit quantity");
	a = a->n_next;
	p[1] = agg_param(ctx, a, "D_LQUANT_LIMTYPE", "lquantize( ) argument "
	    "#2 must be an integer constant");
	if (p[1] != (int32_t)p[1])
		dt_error_node(ctx, a, "D_LQUANT_LIMVAL", "lquantize( ) "
		    "argument #2 must be a 32-bit quantity");
	if (p[1] < p[0])
		dt_error_node(ctx, f, "D_LQUANT_MISMATCH", "lquantize( ) base "
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

static void llquantize_params(dt_ctx *ctx, dt_node *f, int64_t *p)
{
	static const char *const ttag[] = { "D_LLQUANT_FACTORTYPE",
	    "D_LLQUANT_LOWTYPE", "D_LLQUANT_HIGHTYPE", "D_LLQUANT_NSTEPTYPE" };
	static const char *const vtag[] = { "D_LLQUANT_FACTORVAL",
	    "D_LLQUANT_LOWVAL", "D_LLQUANT_HIGHVAL", "D_LLQUANT_NSTEPVAL" };
	dt_node *a = f->n_args->n_next;
	for (int i = 0; i < 4; i++, a = a->n_next) {
		if (!(a->n_flags & DT_NF_CONST))
			dt_error_node(ctx, a, ttag[i], "llquantize( ) argument "
			    "#%d (%s) must be an integer constant", i + 1,
			    llq_what[i]);
		p[i] = a->n_ival;
		if ((uint64_t)p[i] > UINT16_MAX)
			dt_error_node(ctx, a, vtag[i], "llquantize( ) argument "
			    "#%d (%s) must be an unsigned 16-bit quantity", i + 1,
			    llq_what[i]);
	}
	if (p[0] < 2)
		dt_error_node(ctx, f, "D_LLQUANT_FACTORSMALL", "llquantize( ) "
		    "factor (argument #1) must be two or more");
	if (p[1] >= p[2])
		dt_error_node(ctx, f, "D_LLQUANT_MAGRANGE", "llquantize( ) "
		    "high magnitude (argument #3) must be greater than low "
		    "magnitude (argument #2)");
	if (p[3] < p[0])
		dt_error_node(ctx, f, "D_LLQUANT_FACTORNSTEPS", "llquantize( ) "
		    "factor (argument #1) must be less than or equal to the "
		    "number of linear steps per magnitude (argument #4)");
	uint64_t v = (uint64_t)p[0];
	while (v < (uint64_t)p[3])
		v *= (uint64_t)p[0];
	if (p[3] % p[0] != 0 || v % (uint64_t)p[3] != 0)
		dt_error_node(ctx, f, "D_LLQUANT_FACTOREVEN", "llquantize( ) "
		    "factor (argument #1) must evenly divide the number of steps "
		    "per magnitude (argument #4), and the number of steps per "
		    "magnitude must evenly divide a power of the factor");
	uint64_t order = 1;
	for (int64_t i = 0; i < p[2]; i++) {
		if (order * (uint64_t)p[0] <= order)
			dt_error_node(ctx, f, "D_LLQUANT_MAGTOOBIG", "llquantize( ) "
			    "factor (%d) raised to power of high magnitude (%d) "
			    "overflows 64-bits", (int)p[0], (int)p[2]);
		order *= (uint64_t)p[0];
	}
}

/* A later use of an lquantize/llquantize aggregation keeps its parameters. */
static void agg_match(dt_ctx *ctx, dt_node *f, dt_aggdesc *ag, const int64_t *p,
                      uint32_t np)
{
	const int64_t *o = ag->ag_params;
	if (ag->ag_func == DT_AGG_LQUANTIZE) {
		/* the limit as DTrace keeps it: base + levels * step */
		int64_t olim = o[0] + (o[1] - o[0]) / o[2] * o[2];
		int64_t lim = p[0] + (p[1] - p[0]) / p[2] * p[2];
		if (o[0] != p[0])
			dt_error_node(ctx, f, "D_LQUANT_MATCHBASE", "lquantize( ) "
			    "base (argument #1) doesn't match previous "
			    "declaration: expected %d, found %d", (int)o[0],
			    (int)p[0]);
		if (olim - o[0] != lim - p[0])
			dt_error_node(ctx, f, "D_LQUANT_MATCHLIM", "lquantize( ) "
			    "limit (argument #2) doesn't match previous "
			    "declaration: expected %d, found %d", (int)olim,
			    (int)lim);
		if (o[2] != p[2])
			dt_error_node(ctx, f, "D_LQUANT_MATCHSTEP", "lquantize( ) "
			    "step (argument #3) doesn't match previous "
			    "declaration: expected %d, found %d", (int)o[2],
			    (int)p[2]);
		return;
	}
	static const char *const tag[] = { "D_LLQUANT_FACTORMATCH",
	    "D_LLQUANT_LOWMATCH", "D_LLQUANT_HIGHMATCH",
	    "D_LLQUANT_NSTEPMATCH" };
	for (uint32_t i = 0; i < np; i++)
		if (o[i] != p[i])
			dt_error_node(ctx, f, tag[i], "llquantize( ) %s (argument "
			    "#%u) doesn't match previous declaration: expected "
			    "%d, found %d", llq_what[i], i + 1, (int)o[i],
			    (int)p[i]);
}

static void agg_keys(dt_ctx *ctx, dt_node *lhs, dt_ident *id, dt_aggdesc *ag,
                     bool fresh)
{
	uint32_t nk = 0;
	char kb[64], pb[64];
	for (dt_node *k = lhs->n_args; k != NULL; k = k->n_next, nk++) {
		const dt_type *t = k->n_type;
		if (nk == DT_MAXKEYS)
			dt_error_node(ctx, k, "D_AGG_MDIM", "@%s has too many "
			    "keys (limit %d)", lhs->n_str, DT_MAXKEYS);
		if (!dt_type_isscalar(t) && !dt_type_isstring(t) &&
		    t->ty_kind != DT_TK_STACK && t->ty_kind != DT_TK_SYMADDR)
			dt_error_node(ctx, k, "D_KEY_TYPE", "%s expression may "
			    "not be used as aggregation index: key #%u",
			    dt_sema_tname(t, kb, sizeof(kb)), nk + 1);
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
			dt_type_name(t, b, sizeof(b));
			static const char *const kinds[] = { "integer",
			    "stack", "ustack", "symbol", "module" };
			if (t->ty_kind == DT_TK_STACK || t->ty_kind ==
			    DT_TK_SYMADDR)
				dt_snprintf(b, sizeof(b), "%s", kinds[kt.kt_kind]);
			const char *pn = ag->ag_keys[nk].kt_string ? "string" :
			    kinds[ag->ag_keys[nk].kt_kind];
			if (id->id_keys[nk] != NULL)
				pn = dt_sema_tname(id->id_keys[nk], pb, sizeof(pb));
			dt_error_node(ctx, k, "D_PROTO_ARG", "@%s[ ] key #%u is "
			    "incompatible with prototype:\n\tprototype: %s\n\t"
			    "      key: %s", lhs->n_str, nk + 1, pn, b);
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
 * Marks the node (n_ival = dt_keykind, n_b = frames) and returns true.
 */
static bool agg_special_key(dt_ctx *ctx, dt_node *k)
{
	if (k->n_kind != DT_N_CALL)
		return false;
	const dt_func *fn = dt_func_lookup(ctx, k->n_str);
	if (fn == NULL || fn->fn_class != DT_FN_ACT ||
	    (fn->fn_act != DT_ACT_STACK && fn->fn_act != DT_ACT_USTACK &&
	    fn->fn_act != DT_ACT_SYM && fn->fn_act != DT_ACT_MOD &&
	    fn->fn_act != DT_ACT_USYM && fn->fn_act != DT_ACT_UADDR &&
	    fn->fn_act != DT_ACT_UMOD))
		return false;
	dt_fn_cook_args(ctx, k);
	dt_fn_check_len(ctx, k, fn, dt_fn_nargs(k));
	dt_node *a = k->n_args;
	k->n_flags |= DT_NF_COOKED;
	if (fn->fn_act == DT_ACT_STACK || fn->fn_act == DT_ACT_USTACK) {
		k->n_ival = fn->fn_act == DT_ACT_STACK ? DT_KEY_STACK :
		    DT_KEY_USTACK;
		k->n_b = a == NULL ? NULL : dt_node_int(ctx, a,
		    dt_fn_stack_args(ctx, fn, a), ctx->c_t_int);
		k->n_type = ctx->c_t_stack;
		return true;
	}
	if (!dt_type_isscalar(a->n_type))
		dt_fn_proto_arg(ctx, k, "D_PROTO_ARG", fn->fn_name, 1,
		    "pointer or integer", a->n_type);
	k->n_ival = fn->fn_act == DT_ACT_SYM ? DT_KEY_SYM :
	    fn->fn_act == DT_ACT_MOD ? DT_KEY_MOD :
	    fn->fn_act == DT_ACT_USYM ? DT_KEY_USYM :
	    fn->fn_act == DT_ACT_UADDR ? DT_KEY_UADDR : DT_KEY_UMOD;
	k->n_type = ctx->c_t_symaddr;
	return true;
}

/*
 * The aggregating function of "@a[keys] = f(args)", checked as DTrace
 * cooks the call: its arguments, its prototype, then that it is one.
 */
static const dt_func *agg_func(dt_ctx *ctx, dt_node *asg)
{
	dt_node *lhs = asg->n_a, *f = asg->n_b;
	const dt_func *fn = f->n_kind == DT_N_CALL ?
	    dt_func_lookup(ctx, f->n_str) : NULL;
	if (asg->n_op != DT_T_ASGN || fn == NULL || fn->fn_class != DT_FN_AGG) {
		(void)dt_sema_expr(ctx, f);	/* the value's own errors first */
		dt_error_node(ctx, asg, "D_AGG_FUNC", "@%s must be assigned "
		    "the result of an aggregating function", lhs->n_str);
	}
	dt_fn_cook_args(ctx, f);
	dt_fn_check_len(ctx, f, fn, dt_fn_nargs(f));
	uint32_t i = 0;
	char pb[48];
	for (dt_node *a = f->n_args; a != NULL; a = a->n_next, i++)
		if (dt_proto_argtype(fn->fn_name, i + 1, pb, sizeof(pb)) !=
		    NULL && !dt_type_isint(a->n_type))	/* lquantize's int32_t */
			dt_fn_proto_arg(ctx, f, "D_PROTO_ARG", fn->fn_name, i + 1,
			    "int", a->n_type);
	return fn;
}

/* The aggregation @name: found, or created with the function fn. */
static dt_ident *agg_ident(dt_ctx *ctx, dt_node *asg, const dt_func *fn, bool *fresh)
{
	dt_node *lhs = asg->n_a;
	char key[80];
	dt_snprintf(key, sizeof(key), "@%s", lhs->n_str);
	dt_ident *id = dt_ident_lookup(&ctx->c_globals, key);
	*fresh = id == NULL;
	if (id == NULL) {
		id = dt_ident_insert(ctx, &ctx->c_globals,
		    dt_strdup(ctx, key, dt_strlen(key)), DT_IDK_AGG);
		id->id_aggidx = dt_agg_add(ctx, lhs->n_str);
		id->id_line = asg->n_line;
		ctx->c_prog->dp_aggs[id->id_aggidx].ag_func =
		    (dt_aggfunc)fn->fn_act;
		return id;
	}
	dt_aggfunc old = ctx->c_prog->dp_aggs[id->id_aggidx].ag_func;
	if (old != (dt_aggfunc)fn->fn_act)
		dt_error_node(ctx, asg->n_b, "D_AGG_REDEF", "aggregation "
		    "redefined: @%s\n\t current: @%s = %s( )\n\tprevious: @%s = "
		    "%s( ) : line %u", lhs->n_str, lhs->n_str, fn->fn_name,
		    lhs->n_str, agg_fname(old), id->id_line);
	return id;
}

/* The keys: cooked (stack() and the like specially), then checked. */
static void agg_cook_keys(dt_ctx *ctx, dt_node *lhs, dt_ident *id, dt_aggdesc *ag,
                          bool fresh)
{
	for (dt_node **k = &lhs->n_args; *k != NULL; k = &(*k)->n_next) {
		dt_node *nx = (*k)->n_next;
		if (!agg_special_key(ctx, *k))
			*k = dt_sema_expr(ctx, *k);
		(*k)->n_next = nx;
	}
	agg_keys(ctx, lhs, id, ag, fresh);
	if (!fresh)
		return;
	uint32_t nk = 0;	/* printa( ) of several compares these */
	for (dt_node *k = lhs->n_args; k != NULL; k = k->n_next)
		id->id_keys[nk++] = k->n_type;
	id->id_nkeys = nk;
}

/* The increment (weight) of quantize/lquantize/llquantize, or NULL. */
static dt_node *agg_incr(dt_ctx *ctx, dt_node *f, const dt_func *fn, uint32_t na)
{
	uint32_t argmax = fn->fn_act == DT_AGG_QUANTIZE ? 2 :
	    fn->fn_act == DT_AGG_LQUANTIZE ? 5 :
	    fn->fn_act == DT_AGG_LLQUANTIZE ? 6 : 0;
	if (argmax == 0 || na < argmax)
		return NULL;
	dt_node *incr = f->n_args;
	for (uint32_t i = 1; i < argmax; i++)
		incr = incr->n_next;
	if (incr->n_kind == DT_N_AGG || !dt_type_isscalar(incr->n_type))
		dt_error_node(ctx, f, "D_PROTO_ARG", "%s( ) increment value "
		    "(argument #%u) must be of scalar type", fn->fn_name,
		    argmax);
	if (incr->n_next != NULL)
		dt_error_node(ctx, incr, "D_PROTO_LEN", "%s( ) prototype "
		    "mismatch: %u args passed, at most %u expected",
		    fn->fn_name, na, argmax);
	return incr;
}

/*
 * @name[keys] = func(args);  DTrace's order: the call and its prototype,
 * that it is an aggregating function, that the aggregation keeps its
 * function (D_AGG_REDEF), the keys; then the value (D_AGG_SCALAR), the
 * quantization parameters, the increment; then the ordering rules.
 */
void dt_aggregation(dt_ctx *ctx, dt_node *asg)
{
	dt_node *lhs = asg->n_a, *f = asg->n_b;
	const dt_func *fn = agg_func(ctx, asg);
	uint32_t na = dt_fn_nargs(f);
	bool fresh;
	dt_ident *id = agg_ident(ctx, asg, fn, &fresh);
	dt_aggdesc *ag = &ctx->c_prog->dp_aggs[id->id_aggidx];
	agg_cook_keys(ctx, lhs, id, ag, fresh);
	if (na > 0 && (f->n_args->n_kind == DT_N_AGG ||
	    !dt_type_isscalar(f->n_args->n_type)))
		dt_error_node(ctx, f, "D_AGG_SCALAR", "%s( ) argument #1 must "
		    "be of scalar type", fn->fn_name);
	int64_t p[4] = { 0, 0, 0, 0 };
	uint32_t np = 0;
	if (fn->fn_act == DT_AGG_LQUANTIZE) {
		lquantize_params(ctx, f, p);
		np = 3;
	} else if (fn->fn_act == DT_AGG_LLQUANTIZE) {
		llquantize_params(ctx, f, p);
		np = 4;
	}
	if (fresh) {
		for (uint32_t i = 0; i < np; i++)
			ag->ag_params[i] = p[i];
		ag->ag_nparams = np;
	} else {
		agg_match(ctx, f, ag, p, np);
	}
	dt_node *incr = agg_incr(ctx, f, fn, na);
	dt_order_check(ctx, asg, DT_ORD_AGG);
	dt_action *ac = dt_action_add(ctx, DT_ACT_AGG, asg);
	ac->ac_aggs = dt_alloc(ctx, sizeof(uint32_t));
	ac->ac_aggs[0] = id->id_aggidx;
	ac->ac_naggs = 1;
	/* value arguments: the value, then the increment if any */
	uint32_t nv = na == 0 ? 0 : incr != NULL ? 2 : 1;
	ac->ac_nargs = ag->ag_nkeys + nv;
	ac->ac_args = dt_alloc(ctx, sizeof(dif_difo_t *) * (ac->ac_nargs +
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
	if (na > 0)
		ac->ac_args[i++] = dt_cg_expr(ctx, f->n_args);
	if (incr != NULL)
		ac->ac_args[i++] = dt_cg_expr(ctx, incr);
}
