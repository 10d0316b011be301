/*
 * dlang/dt_agg.c: aggregations, "@name[keys] = func(args);".
 *
 * Checks the aggregating function and its arguments as DTrace does
 * (D_AGG_*, D_LQUANT_*, D_LLQUANT_*), keeps each aggregation's description
 * in the program (function, key types, quantization parameters) and
 * insists that later uses agree with the first, cooks the special keys
 * stack(), ustack(), func(), sym() and mod(), and emits the DT_ACT_AGG
 * action with one DIFO per key and per value argument.
 */
#include "dlang/dt.h"

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
 * Marks the node (n_ival = dt_keykind, n_b = frames) and returns true.
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
	uint32_t na = dt_fn_nargs(k);
	if (na < fn->fn_min || na > fn->fn_max)
		dt_fn_proto_len(ctx, k, dt_fn_len_tag(fn), fn, na);
	dt_fn_cook_args(ctx, k);
	dt_node *a = k->n_args;
	k->n_flags |= DT_NF_COOKED;
	if (fn->fn_act == DT_ACT_STACK || fn->fn_act == DT_ACT_USTACK) {
		k->n_ival = fn->fn_act == DT_ACT_STACK ? DT_KEY_STACK :
		    DT_KEY_USTACK;
		k->n_b = a == NULL ? NULL : dt_node_int(ctx, a, dt_fn_const_arg(ctx,
		    a, fn->fn_act == DT_ACT_STACK ? "D_STACK_SIZE" :
		    "D_USTACK_FRAMES", "stack( ) argument #1 must be a non-zero "
		    "positive integral constant expression"), ctx->c_t_int);
		k->n_type = ctx->c_t_stack;
		return (true);
	}
	if (!dt_type_isscalar(a->n_type))
		dt_fn_proto_arg(ctx, k, "D_PROTO_ARG", fn->fn_name, 1,
		    "pointer or integer", a->n_type);
	k->n_ival = fn->fn_act == DT_ACT_SYM ? DT_KEY_SYM : DT_KEY_MOD;
	k->n_type = ctx->c_t_symaddr;
	return (true);
}

/* @name[keys] = func(args); */
void
dt_aggregation(dt_ctx *ctx, dt_node *asg)
{
	dt_node *lhs = asg->n_a, *f = asg->n_b;
	const dt_func *fn = f->n_kind == DT_N_CALL ?
	    dt_func_lookup(f->n_str) : NULL;
	if (asg->n_op != DT_T_ASGN || fn == NULL || fn->fn_class != DT_FN_AGG)
		dt_error_node(ctx, asg, "D_AGG_FUNC", "@%s must be assigned "
		    "the result of an aggregating function", lhs->n_str);
	uint32_t na = dt_fn_nargs(f);
	if (na < fn->fn_min || na > fn->fn_max)
		dt_fn_proto_len(ctx, f, "D_PROTO_LEN", fn, na);
	dt_fn_cook_args(ctx, f);
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
	}
	/* the optional increment (weight) is the last argument */
	dt_node *incr = NULL;
	if ((fn->fn_act == DT_AGG_QUANTIZE && na == 2) ||
	    (fn->fn_act == DT_AGG_LQUANTIZE && na == 5) ||
	    (fn->fn_act == DT_AGG_LLQUANTIZE && na == 6)) {
		for (incr = f->n_args; incr->n_next != NULL; incr = incr->n_next)
			;
		if (incr->n_kind == DT_N_AGG || !dt_type_isscalar(incr->n_type))
			dt_error_node(ctx, f, "D_AGG_SCALAR", "%s( ) argument #%u "
			    "must be of scalar type", fn->fn_name, na);
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
	dt_order_check(ctx, asg, DT_ORD_AGG);
	dt_action *ac = dt_action_add(ctx, DT_ACT_AGG, asg);
	ac->ac_aggs = dt_alloc(ctx, sizeof (uint32_t));
	ac->ac_aggs[0] = id->id_aggidx;
	ac->ac_naggs = 1;
	/* value arguments: the value, then the increment if any */
	uint32_t nv = na == 0 ? 0 : incr != NULL ? 2 : 1;
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
	if (na > 0)
		ac->ac_args[i++] = dt_cg_expr(ctx, f->n_args);
	if (incr != NULL)
		ac->ac_args[i++] = dt_cg_expr(ctx, incr);
}

