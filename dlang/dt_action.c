/*
 * dlang/dt_action.c: clauses, statements, actions and aggregations.
 *
 * dt_sema_clause() is called by the parser for each finished clause.  It
 * fills one dt_clause of the program: the probe descriptions, the
 * predicate DIFO, and one dt_action per statement (DIF for each value
 * through dt_cg_expr).  Here live the argument checks of every action
 * with DTrace's tags and messages, and DTrace's ordering rules for
 * speculations:
 *
 *   aggregation   not after commit( ) (D_AGG_COMM) or speculate( ) (D_AGG_SPEC)
 *   destructive   not after speculate( )                       (D_ACT_SPEC)
 *   exit( )       not after speculate( )                      (D_EXIT_SPEC)
 *   commit( )     not after commit( ) (D_COMM_COMM), data recording
 *                 (D_COMM_DREC) or speculate( )
 *   speculate( )  not after commit( ), speculate( ) or data recording
 *   data records  not after commit( )                         (D_DREC_COMM)
 *
 * A predicate is cooked before its clause's body; if it names a variable
 * not yet known (D_IDENT_UNDEF), the body is compiled first and a copy of
 * the predicate after it, as DTrace does (pred_try).
 *
 * Order: ordering rules, actions, statements (and if/else), probe
 * descriptions, clauses.  The function table is in dt_func.c, aggregations
 * in dt_agg.c.
 *
 * Tests: tests/dlang/ (exact DIF), tests/d/err.D_*.d (make dlang-check),
 *        tests/unit/dlang_compile_test.c
 */
#include "dlang/dt.h"

/* ---- ordering rules ---- */

void dt_order_check(dt_ctx *ctx, dt_node *n, dt_ordkind k)
{
	dt_clstate *s = &ctx->c_cl;
	switch (k) {
	case DT_ORD_AGG:
		if (s->cs_commit)
			dt_error_node(ctx, n, "D_AGG_COMM", "aggregating "
			    "actions may not follow commit( )");
		if (s->cs_spec)
			dt_error_node(ctx, n, "D_AGG_SPEC", "aggregating "
			    "actions may not follow speculate( )");
		s->cs_datarec = true;
		return;
	case DT_ORD_DESTR:
		if (s->cs_spec)
			dt_error_node(ctx, n, "D_ACT_SPEC", "destructive "
			    "actions may not follow speculate( )");
		break;
	case DT_ORD_EXIT:
		if (s->cs_spec)
			dt_error_node(ctx, n, "D_EXIT_SPEC", "exit( ) may not "
			    "follow speculate( )");
		break;
	case DT_ORD_COMMIT:
		if (s->cs_commit)
			dt_error_node(ctx, n, "D_COMM_COMM", "commit( ) may "
			    "not follow commit( )");
		if (s->cs_datarec)
			dt_error_node(ctx, n, "D_COMM_DREC", "commit( ) may "
			    "not follow data-recording action(s)");
		if (s->cs_spec)
			dt_error_node(ctx, n, "D_COMM_SPEC", "commit( ) may "
			    "not follow speculate( )");
		s->cs_commit = true;
		return;
	case DT_ORD_SPEC:
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
	case DT_ORD_NONE:
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

/* The action's value arguments: one DIFO for each of n nodes from first. */
static void act_args(dt_ctx *ctx, dt_action *ac, dt_node *first, uint32_t n)
{
	ac->ac_args = dt_alloc(ctx, sizeof(*ac->ac_args) * (n == 0 ? 1 : n));
	ac->ac_nargs = n;
	uint32_t i = 0;
	for (dt_node *a = first; a != NULL && i < n; a = a->n_next)
		ac->ac_args[i++] = dt_cg_expr(ctx, a);
}

/*
 * tracemem(addr, size[, dsize]): ac_args[0] = addr and, with a third
 * argument, ac_args[1] = dsize, the number of bytes to display, evaluated
 * when the probe fires (the consumer ignores it below 0 or above size).
 * The record: the size bytes, then dsize as 8 bytes at the next multiple of 8.
 */
static void act_tracemem_args(dt_ctx *ctx, dt_action *ac, dt_node *addr)
{
	dt_node *dsize = addr->n_next->n_next;

	if (dsize != NULL && !dt_type_isscalar(dsize->n_type))
		dt_error_node(ctx, dsize, "D_TRACEMEM_DYNSIZE", "tracemem ( ) "
		    "dynamic size (argument #3) must be of scalar type");
	ac->ac_args = dt_alloc(ctx, sizeof(*ac->ac_args) * 2);
	ac->ac_args[0] = dt_cg_expr(ctx, addr);
	ac->ac_nargs = 1;
	ac->ac_size = (uint32_t)ac->ac_arg;
	if (dsize != NULL) {
		ac->ac_args[ac->ac_nargs++] = dt_cg_expr(ctx, dsize);
		ac->ac_size = ((uint32_t)ac->ac_arg + 7) / 8 * 8 + 8;
	}
}

static uint32_t value_size(dt_ctx *ctx, const dt_type *t)
{
	if (dt_type_isstring(t))
		return ctx->c_prog->dp_strsize;
	return t->ty_size == 0 ? 8 : t->ty_size;
}

/*
 * Argument i of fname, which must name a defined aggregation (@a, no
 * keys): argtag if it is not an aggregation, badtag if it is undefined.
 */
static dt_ident *agg_find(dt_ctx *ctx, dt_node *a, const char *argtag, const char *badtag,
                          const char *fname, uint32_t i)
{
	if (a->n_kind != DT_N_AGG)	/* @a[k] names @a, as in DTrace */
		dt_fn_proto_arg(ctx, a, argtag, fname, i, "aggregation",
		    a->n_type);
	char key[80];
	dt_snprintf(key, sizeof(key), "@%s", a->n_str);
	dt_ident *id = dt_ident_lookup(&ctx->c_globals, key);
	if (id == NULL)
		dt_error_node(ctx, a, badtag, "undefined aggregation: @%s",
		    a->n_str);
	return id;
}

static DT_NOINLINE void act_trace(dt_ctx *ctx, dt_node *n, dt_action *ac)
{
	dt_node *a = n->n_args;
	if (a->n_type->ty_kind == DT_TK_VOID)
		dt_error_node(ctx, a, "D_TRACE_VOID", "trace( ) may not be "
		    "applied to a void expression");
	if (a->n_kind == DT_N_AGG || a->n_type->ty_kind == DT_TK_AGGFN)
		dt_error_node(ctx, a, "D_TRACE_DYN", "trace( ) may not be "
		    "applied to a dynamic expression");
	act_args(ctx, ac, a, 1);
	ac->ac_size = value_size(ctx, a->n_type);
	if (a->n_type->ty_kind == DT_TK_STRUCT || a->n_type->ty_kind ==
	    DT_TK_UNION || a->n_type->ty_kind == DT_TK_ARRAY)
		ac->ac_arg = a->n_type->ty_align;	/* 1: printed as text */
}

/*
 * printa's aggregations, the arguments from first (argument argno), in
 * DTrace's order: each must be a defined aggregation; the format (if any)
 * is checked against the first; each later one must have the first's keys.
 */
static DT_NOINLINE void act_aggs(dt_ctx *ctx, dt_node *n, dt_action *ac, dt_node *first,
                                 uint32_t argno)
{
	uint32_t na = 0;
	for (dt_node *a = first; a != NULL; a = a->n_next)
		na++;
	ac->ac_aggs = dt_alloc(ctx, sizeof(uint32_t) * (na == 0 ? 1 : na));
	dt_ident *proto = NULL;
	for (dt_node *a = first; a != NULL; a = a->n_next, argno++) {
		dt_ident *id = agg_find(ctx, a, "D_PRINTA_AGGARG",
		    "D_PRINTA_AGGBAD", n->n_str, argno);
		if (proto != NULL)
			dt_proto_printa_keys(ctx, n, proto, id);
		else
			proto = id;
		if (a == first && first != n->n_args)
			ac->ac_fmt = dt_printf_create(ctx, n, "printa",
			    n->n_args, first, true);
		ac->ac_aggs[ac->ac_naggs++] = id->id_aggidx;
	}
}

static DT_NOINLINE void act_printa(dt_ctx *ctx, dt_node *n, dt_action *ac)
{
	dt_node *first = n->n_args;
	uint32_t argno = 1;
	if (first->n_kind == DT_N_STR) {
		if (first->n_next == NULL)
			dt_error_node(ctx, n, "D_PRINTA_PROTO", "printa( ) "
			    "prototype mismatch: 1 args passed, 2 expected");
		first = first->n_next;
		argno = 2;
	}
	act_aggs(ctx, n, ac, first, argno);
}

static DT_NOINLINE void act_scalar_arg(dt_ctx *ctx, dt_node *n, dt_action *ac, dt_node *a,
                                       const char *tag, uint32_t argno)
{
	if (!dt_type_isscalar(a->n_type))
		dt_error_node(ctx, n, tag, "%s( ) argument #%u must be of "
		    "scalar type", n->n_str, argno);
	act_args(ctx, ac, a, 1);
}

static DT_NOINLINE void act_aggop(dt_ctx *ctx, dt_node *n, dt_action *ac, uint32_t na)
{
	const char *arg = "D_CLEAR_AGGARG", *bad = "D_CLEAR_AGGBAD";
	const char *sc = "D_TRUNC_SCALAR";
	if (ac->ac_kind == DT_ACT_TRUNC) {
		arg = "D_TRUNC_AGGARG";
		bad = "D_TRUNC_AGGBAD";
	}
	if (ac->ac_kind == DT_ACT_NORMALIZE ||
	    ac->ac_kind == DT_ACT_DENORMALIZE) {
		arg = "D_NORMALIZE_AGGARG";
		bad = "D_NORMALIZE_AGGBAD";
		sc = "D_NORMALIZE_SCALAR";
	}
	/* DTrace's order: the aggregation argument, the value, then defined */
	dt_node *a = n->n_args;
	if (a->n_kind != DT_N_AGG)
		(void)agg_find(ctx, a, arg, bad, n->n_str, 1);
	if (na == 2 && !dt_type_isscalar(a->n_next->n_type))
		dt_error_node(ctx, n, sc, "%s( ) argument #2 must be of scalar "
		    "type", n->n_str);
	dt_ident *id = agg_find(ctx, a, arg, bad, n->n_str, 1);
	ac->ac_aggs = dt_alloc(ctx, sizeof(uint32_t));
	ac->ac_aggs[0] = id->id_aggidx;
	ac->ac_naggs = 1;
	if (na == 2)
		act_scalar_arg(ctx, n, ac, a->n_next, sc, 2);
}

static dt_ordkind act_order(dt_actkind k, dt_fnclass c)
{
	if (c == DT_FN_DESTR)
		return DT_ORD_DESTR;
	switch (k) {
	case DT_ACT_EXIT: return (DT_ORD_EXIT);
	case DT_ACT_COMMIT: return (DT_ORD_COMMIT);
	case DT_ACT_SPECULATE: return (DT_ORD_SPEC);
	case DT_ACT_DISCARD: return (DT_ORD_NONE);
	default: return (DT_ORD_DREC);
	}
}

static DT_NOINLINE void act_simple_int(dt_ctx *ctx, dt_node *n, dt_action *ac)
{
	act_args(ctx, ac, n->n_args, dt_fn_nargs(n));
	ac->ac_size = ac->ac_nargs == 0 ? 0 : 8;
}

/*
 * The parameters DTrace's prototype gives a type (exit's int, setopt's
 * strings, tracemem's size...): D_PROTO_ARG before any check of the
 * action's own.
 */
static DT_NOINLINE void action_typed(dt_ctx *ctx, dt_node *n, const dt_func *fn)
{
	uint32_t i = 0;
	char pb[48];
	for (dt_node *a = n->n_args; a != NULL; a = a->n_next, i++) {
		if (dt_proto_argtype(fn->fn_name, i + 1, pb, sizeof(pb)) == NULL)
			continue;
		if (!dt_fn_proto_ok(dt_fn_proto_at(fn, i), a) ||
		    a->n_kind == DT_N_AGG)
			dt_fn_proto_arg(ctx, n, "D_PROTO_ARG", fn->fn_name, i + 1,
			    dt_fn_proto_text(dt_fn_proto_at(fn, i)), a->n_type);
	}
}

/*
 * The count of the actions whose prototype takes any number of arguments
 * (after DTrace's prototype check, D_PROTO_LEN): the action's own, with
 * its own tag and words (stack and ustack: dt_fn_stack_args).
 */
static DT_NOINLINE void action_count(dt_ctx *ctx, dt_node *n, const dt_func *fn, uint32_t na)
{
	switch (fn->fn_act) {
	case DT_ACT_CLEAR:
		if (na != 1)
			dt_error_node(ctx, n, "D_CLEAR_PROTO", "%s( ) prototype "
			    "mismatch: %u args passed, 1 expected", fn->fn_name,
			    na);
		break;
	case DT_ACT_NORMALIZE: case DT_ACT_DENORMALIZE: {
		uint32_t want = fn->fn_act == DT_ACT_NORMALIZE ? 2 : 1;
		if (na != want)
			dt_error_node(ctx, n, "D_NORMALIZE_PROTO", "%s( ) "
			    "prototype mismatch: %u args passed, %u expected",
			    fn->fn_name, na, want);
		break;
	}
	case DT_ACT_TRUNC:
		if (na < 1 || na > 2)
			dt_error_node(ctx, n, "D_TRUNC_PROTO", "%s( ) prototype "
			    "mismatch: %u args passed, %s expected", fn->fn_name,
			    na, na < 1 ? "at least 1" : "no more than 2");
		break;
	case DT_ACT_STACK: case DT_ACT_USTACK:
		break;
	case DT_ACT_TRACEMEM:	/* DTrace's prototype: (@, size_t, ...) */
		if (na > 3)
			dt_error_node(ctx, n, "D_TRACEMEM_ARGS", "tracemem ( ) "
			    "prototype mismatch: expected at most 3 args");
		break;
	default:
		if (na > fn->fn_max)
			dt_fn_proto_len(ctx, n, "D_PROTO_LEN", fn, na);
		break;
	}
}

/* A statement that calls an action. */
static void action(dt_ctx *ctx, dt_node *n, const dt_func *fn)
{
	dt_fn_cook_args(ctx, n);	/* an argument's own error comes first */
	uint32_t na = dt_fn_nargs(n);
	dt_fn_check_len(ctx, n, fn, na);
	action_typed(ctx, n, fn);
	action_count(ctx, n, fn, na);
	dt_fn_check_destructive(ctx, n, fn);
	dt_action *ac = dt_action_add(ctx, (dt_actkind)fn->fn_act, n);
	dt_node *a = n->n_args;
	switch (fn->fn_act) {
	case DT_ACT_TRACE:
		act_trace(ctx, n, ac);
		break;
	case DT_ACT_PRINTF: case DT_ACT_SYSTEM: case DT_ACT_FREOPEN:
		ac->ac_fmt = dt_printf_create(ctx, n, fn->fn_name, a,
		    a->n_next, false);
		act_args(ctx, ac, a->n_next, na - 1);
		break;
	case DT_ACT_PRINTA:
		act_printa(ctx, n, ac);
		break;
	case DT_ACT_STACK: case DT_ACT_USTACK:
		if (a != NULL)
			ac->ac_arg = (uint64_t)dt_fn_stack_args(ctx, fn, a);
		ac->ac_size = 8 * (uint32_t)(ac->ac_arg == 0 ? 20 :
		    (ac->ac_arg > 100 ? 100 : ac->ac_arg));
		break;
	case DT_ACT_TRACEMEM:
		if (!dt_type_isscalar(a->n_type))
			dt_fn_proto_arg(ctx, n, "D_TRACEMEM_ADDR", "tracemem", 1,
			    "pointer or integer", a->n_type);
		ac->ac_arg = (uint64_t)dt_fn_const_arg(ctx, a->n_next,
		    "D_TRACEMEM_SIZE", "tracemem( ) argument #2 must be a "
		    "non-zero positive integral constant expression");
		act_tracemem_args(ctx, ac, a);
		break;
	case DT_ACT_CLEAR: case DT_ACT_TRUNC: case DT_ACT_NORMALIZE:
	case DT_ACT_DENORMALIZE:
		act_aggop(ctx, n, ac, na);
		break;
	case DT_ACT_SETOPT:	/* the consumer reads them from the DIF */
		for (dt_node *o = a; o != NULL; o = o->n_next)
			if (o->n_kind != DT_N_STR)
				dt_error_node(ctx, o, "D_PROTO_ARG", "setopt( ) "
				    "argument #%u must be a string constant in "
				    "Sonde", o == a ? 1 : 2);
		act_args(ctx, ac, a, na);
		break;
	case DT_ACT_FTRUNCATE:
		ac->ac_size = 8;
		break;
	case DT_ACT_PRINT:	/* trace()'s record, with print( )'s own tags */
		if (a->n_kind == DT_N_AGG)
			dt_error_node(ctx, n, "D_PRINT_AGG", "print( ) may not "
			    "be applied to an aggregation");
		if (a->n_type->ty_kind == DT_TK_VOID)
			dt_error_node(ctx, n, "D_PRINT_VOID", "print( ) may not "
			    "be applied to a void expression");
		act_trace(ctx, n, ac);
		dt_ctf_members_deep(ctx, a->n_type);	/* kernel structs */
		ac->ac_type = a->n_type;
		break;
	default:	/* exit, sym/mod, speculate family, destructive */
		act_simple_int(ctx, n, ac);
		break;
	}
	/* as DTrace: the ordering rules once the statement is compiled */
	dt_order_check(ctx, n, act_order((dt_actkind)fn->fn_act, fn->fn_class));
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
static dt_node *if_test(dt_ctx *ctx, dt_node *where, const char *var, dt_tokkind op,
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
	return n;
}

static void stmt_if(dt_ctx *ctx, dt_node *s)
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
	dt_snprintf(name, sizeof(name), "__if%u", ++ctx->c_nifs);
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
	act_args(ctx, ac, asg, 1);
	ctx->c_cl.cs_pending = if_test(ctx, s, var, DT_T_EQ, 1);
	statement(ctx, s->n_b);
	if (s->n_c != NULL) {
		ctx->c_cl.cs_pending = if_test(ctx, s, var, DT_T_EQ, 2);
		statement(ctx, s->n_c);
	}
	ctx->c_cl.cs_pending = if_test(ctx, s, var, DT_T_NE, 0);
}

/* Start the next clause of a split: same probes, the pending predicate. */
void dt_clause_split(dt_ctx *ctx)
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

/*
 * "@a;" or "@a[k];": a statement with no effect (D_AGG_NULL), as DTrace
 * says once it knows the aggregation (brackets make it known; a bare
 * unknown name is an unknown identifier).
 */
static void stmt_agg_null(dt_ctx *ctx, dt_node *e)
{
	char key[80];
	dt_snprintf(key, sizeof(key), "@%s", e->n_str);
	if (e->n_a == NULL && dt_ident_lookup(&ctx->c_globals, key) == NULL)
		dt_error_node(ctx, e, "D_IDENT_UNDEF", "failed to resolve @%s: "
		    "Unknown variable name", e->n_str);
	dt_error_node(ctx, e, "D_AGG_NULL", "expression has null effect: @%s",
	    e->n_str);
}

static void statement(dt_ctx *ctx, dt_node *s)
{
	if (s == NULL)		/* the empty statement ';' (e.g. "if (x) ;") */
		return;
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
		const dt_func *fn = dt_func_lookup(ctx, e->n_str);
		if (fn != NULL && (fn->fn_class == DT_FN_ACT ||
		    (fn->fn_class == DT_FN_DESTR && fn->fn_subr < 0))) {
			action(ctx, e, fn);
			return;
		}
	}
	if (e->n_kind == DT_N_OP2 && e->n_a->n_kind == DT_N_AGG) {
		dt_aggregation(ctx, e);
		return;
	}
	if (e->n_kind == DT_N_AGG)
		stmt_agg_null(ctx, e);
	e = dt_sema_expr(ctx, e);
	dt_action *ac = dt_action_add(ctx, DT_ACT_EXPR, s);
	act_args(ctx, ac, e, 1);
}

/* ---- probe descriptions ---- */

static void pd_field(dt_ctx *ctx, dt_node *p, char *dst, size_t cap, const char *s,
                     size_t n)
{
	if (n >= cap)
		dt_error_node(ctx, p, "D_PDESC_INVAL", "invalid probe "
		    "description \"%s\": Name too long", p->n_str);
	__builtin_memcpy(dst, s, n);
	dst[n] = '\0';
}

static void pdesc_parse(dt_ctx *ctx, dt_node *p, dt_probedesc *pd)
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

/*
 * Predicates are cooked before the clause's body, as DTrace does, except
 * that a predicate may name a variable the body creates ("/x == 0/ { x =
 * 1; }"): when cooking it fails with D_IDENT_UNDEF, the body is compiled
 * first and the predicate (an untouched copy) again after it; an error
 * then is the predicate's.  Every other error stands at once.
 */
static dt_node *tree_copy(dt_ctx *ctx, const dt_node *n)
{
	if (n == NULL)
		return NULL;
	dt_node *c = dt_alloc(ctx, sizeof(*c));
	*c = *n;
	c->n_a = n->n_a == n ? c : tree_copy(ctx, n->n_a);
	c->n_b = tree_copy(ctx, n->n_b);
	c->n_c = tree_copy(ctx, n->n_c);
	c->n_args = tree_copy(ctx, n->n_args);
	c->n_next = tree_copy(ctx, n->n_next);
	return c;
}

/* The cooked predicate, or NULL if it names a variable not yet known. */
static DT_NOINLINE dt_node *pred_try(dt_ctx *ctx, dt_node *pred)
{
	void *outer[5];
	dt_node *volatile r = NULL;
	uint32_t depth = ctx->c_depth;
	__builtin_memcpy(outer, ctx->c_jmp, sizeof(outer));
	if (__builtin_setjmp(ctx->c_jmp) == 0)
		r = dt_sema_expr(ctx, pred);
	__builtin_memcpy(ctx->c_jmp, outer, sizeof(outer));
	if (r == NULL) {
		if (!dt_streq(ctx->c_err->de_tag, "D_IDENT_UNDEF"))
			__builtin_longjmp(ctx->c_jmp, 1);
		__builtin_memset(ctx->c_err, 0, sizeof(*ctx->c_err));
		ctx->c_depth = depth;
	}
	return r;
}

static dif_difo_t *pred_code(dt_ctx *ctx, dt_node *pr)
{
	if (!dt_type_isscalar(pr->n_type))
		dt_error_node(ctx, pr, "D_PRED_SCALAR", "predicate "
		    "result must be of scalar type");
	return dt_cg_expr(ctx, pr);
}

void dt_sema_clause(dt_ctx *ctx, dt_node *c)
{
	dt_clause_begin(ctx, c);
	ctx->c_cl.cs_src = c;
	dt_clause *cl = ctx->c_cl.cs_clause;
	uint32_t n = 0;
	for (dt_node *p = c->n_args; p != NULL; p = p->n_next)
		n++;
	cl->cl_probes = dt_alloc(ctx, sizeof(dt_probedesc) * n);
	for (dt_node *p = c->n_args; p != NULL; p = p->n_next)
		pdesc_parse(ctx, p, &cl->cl_probes[cl->cl_nprobes++]);
	uint32_t first = (uint32_t)(cl - ctx->c_prog->dp_clauses);
	dt_node *later = NULL;
	if (c->n_a != NULL) {
		ctx->c_predbody = c->n_b;	/* self->/this-> the body assigns */
		dt_node *pr = pred_try(ctx, tree_copy(ctx, c->n_a));
		ctx->c_predbody = NULL;
		if (pr != NULL)
			cl->cl_pred = pred_code(ctx, pr);
		else
			later = c->n_a;
	}
	for (dt_node *s = c->n_b; s != NULL; s = s->n_next)
		statement(ctx, s);
	if (later != NULL)
		ctx->c_prog->dp_clauses[first].cl_pred = pred_code(ctx,
		    dt_sema_expr(ctx, later));
	dt_clause_end(ctx);
}
