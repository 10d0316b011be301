/*
 * dlang/dt_sema.c: the semantic pass over expressions ("cooking").
 *
 * dt_sema_expr() walks an expression tree bottom-up and, for each node:
 * resolves identifiers (built-ins, D variables, inlines, enumerators),
 * computes its type, checks D's operand rules with DTrace's error tags and
 * messages, marks lvalues, and folds integer constants (C semantics at the
 * operand's width, D_DIV_ZERO on a constant division by zero, and constant
 * conditions keep only the live branch, so no code is emitted for the dead
 * one).  A cooked node may be replaced by another (a folded constant, an
 * inline's body); callers use the returned node.
 *
 * Statements, actions and aggregations are checked in dt_action.c;
 * declarations and types live in dt_decl.c.  Order: helpers, identifiers,
 * constant folding, unary, binary, assignment, postfix forms, calls, the
 * dispatcher.
 */
#include "dlang/dt.h"

static dt_node *cook(dt_ctx *ctx, dt_node *n);

/* ---- helpers ---- */

static const char *
tname(const dt_type *t, char *buf, size_t len)
{
	dt_type_name(t, buf, len);
	return (buf);
}

static const char *
opname(dt_tokkind op)
{
	return (dt_tok_name(op));
}

static bool
is_const(const dt_node *n)
{
	return ((n->n_flags & DT_NF_CONST) != 0);
}

static bool
is_arith(const dt_type *t)
{
	return (dt_type_isint(t));
}

/* Truncate/extend v to the width and signedness of integer type t. */
static int64_t
fit(const dt_type *t, int64_t v)
{
	uint32_t sz = t->ty_kind == DT_TK_PTR ? 8 : t->ty_size;
	if (sz >= 8 || sz == 0)
		return (v);
	uint64_t mask = (1ULL << (sz * 8)) - 1, u = (uint64_t)v & mask;
	if (t->ty_signed && (u >> (sz * 8 - 1)) != 0)
		u |= ~mask;
	return ((int64_t)u);
}

dt_node *
dt_node_int(dt_ctx *ctx, const dt_node *where, int64_t v, dt_type *type)
{
	dt_node *n = dt_alloc(ctx, sizeof (*n));
	n->n_kind = DT_N_INT;
	n->n_line = where->n_line;
	n->n_col = where->n_col;
	n->n_type = type;
	n->n_ival = fit(type, v);
	n->n_flags = DT_NF_CONST | DT_NF_COOKED;
	n->n_reg = -1;
	return (n);
}

/* C's usual arithmetic conversions for two integer types. */
static dt_type *
arith_result(dt_ctx *ctx, const dt_type *a, const dt_type *b)
{
	uint32_t sa = a->ty_size < 4 ? 4 : a->ty_size;
	uint32_t sb = b->ty_size < 4 ? 4 : b->ty_size;
	bool ua = a->ty_size >= 4 && !a->ty_signed;
	bool ub = b->ty_size >= 4 && !b->ty_signed;
	if (a->ty_kind == DT_TK_ENUM)
		ua = false;
	if (b->ty_kind == DT_TK_ENUM)
		ub = false;
	if (sa != sb)
		return (sa > sb ? dt_type_int(ctx, sa, !ua) :
		    dt_type_int(ctx, sb, !ub));
	return (dt_type_int(ctx, sa, !(ua || ub)));
}

static dt_type *
promote(dt_ctx *ctx, dt_type *t)
{
	if (t->ty_kind == DT_TK_ENUM || t->ty_size < 4)
		return (ctx->c_t_int);
	return (t);
}

/* Can a value of type `from` be stored into something of type `to`? */
static bool
assignable(const dt_type *to, const dt_type *from)
{
	if (dt_type_isstring(to) || dt_type_isstring(from))
		return (dt_type_isstring(to) && dt_type_isstring(from));
	if (dt_type_isscalar(to) && dt_type_isscalar(from))
		return (true);
	if (to->ty_kind == from->ty_kind && (to->ty_kind == DT_TK_STRUCT ||
	    to->ty_kind == DT_TK_UNION))
		return (to == from);
	return (false);
}

static bool
is_dvar(const dt_node *n)
{
	return (n->n_ident != NULL && (n->n_ident->id_kind == DT_IDK_VAR ||
	    n->n_ident->id_kind == DT_IDK_ARRAY));
}

/* ---- identifiers ---- */

/* Types of the built-in variables (no CTF: plain integers and strings). */
static dt_type *
builtin_type(dt_ctx *ctx, const dif_builtin_t *bi)
{
	if (bi->bi_kind == DIF_TYPE_STRING)
		return (ctx->c_t_string);
	switch (bi->bi_id) {
	case DIF_VAR_TIMESTAMP: case DIF_VAR_VTIMESTAMP:
	case DIF_VAR_WALLTIMESTAMP:
		return (dt_type_lookup(ctx, "uint64_t"));
	case DIF_VAR_CPU:
		return (dt_type_lookup(ctx, "processorid_t"));
	case DIF_VAR_PID: case DIF_VAR_PPID:
		return (dt_type_lookup(ctx, "pid_t"));
	case DIF_VAR_TID:
		return (dt_type_lookup(ctx, "id_t"));
	case DIF_VAR_UID:
		return (dt_type_lookup(ctx, "uid_t"));
	case DIF_VAR_ERRNO:
		return (ctx->c_t_int);
	case DIF_VAR_STACKDEPTH: case DIF_VAR_USTACKDEPTH:
	case DIF_VAR_ID: case DIF_VAR_EPID: case DIF_VAR_IPL:
		return (dt_type_lookup(ctx, "uint32_t"));
	case DIF_VAR_CURTHREAD: case DIF_VAR_CURCPU: case DIF_VAR_CALLER:
	case DIF_VAR_UCALLER:
		return (dt_type_lookup(ctx, "uintptr_t"));
	default:
		return (dt_type_lookup(ctx, "int64_t"));
	}
}

/* Make a copy of an uncooked tree (inline bodies are cooked per use). */
static dt_node *
clone(dt_ctx *ctx, const dt_node *n, const dt_node *where)
{
	if (n == NULL)
		return (NULL);
	dt_node *c = dt_alloc(ctx, sizeof (*c));
	*c = *n;
	c->n_line = where->n_line;
	c->n_col = where->n_col;
	c->n_a = clone(ctx, n->n_a == n ? NULL : n->n_a, where);
	if (n->n_a == n)
		c->n_a = c;
	c->n_b = clone(ctx, n->n_b, where);
	c->n_c = clone(ctx, n->n_c, where);
	c->n_args = clone(ctx, n->n_args, where);
	c->n_next = clone(ctx, n->n_next, where);
	return (c);
}

static dt_node *
cast_to(dt_ctx *ctx, dt_node *n, dt_type *t)
{
	if (n->n_type == t)
		return (n);
	if (is_const(n) && dt_type_isint(t))
		return (dt_node_int(ctx, n, n->n_ival, t));
	dt_node *c = dt_alloc(ctx, sizeof (*c));
	c->n_kind = DT_N_CAST;
	c->n_line = n->n_line;
	c->n_col = n->n_col;
	c->n_ctype = t;
	c->n_type = t;
	c->n_a = n;
	c->n_reg = -1;
	c->n_flags = DT_NF_COOKED;
	return (c);
}

/* Body of an inline, cooked at the point of use. */
static dt_node *
inline_use(dt_ctx *ctx, dt_ident *id, dt_node *where)
{
	if (++ctx->c_depth > DT_MAXDEPTH)
		dt_error_node(ctx, where, "D_IDENT_BADREF", "inline %s is "
		    "too deeply nested", id->id_name);
	dt_node *b = cook(ctx, clone(ctx, id->id_expr, where));
	ctx->c_depth--;
	if (!assignable(id->id_type, b->n_type)) {
		char a[64], c[64];
		dt_error_node(ctx, where, "D_OP_INCOMPAT", "inline %s "
		    "definition uses incompatible types: \"%s\" = \"%s\"",
		    id->id_name, tname(id->id_type, a, sizeof (a)),
		    tname(b->n_type, c, sizeof (c)));
	}
	if (dt_type_isstring(id->id_type))
		return (b);
	return (cast_to(ctx, b, id->id_type));
}

void
dt_inline_check(dt_ctx *ctx, dt_ident *id, dt_node *where)
{
	(void)inline_use(ctx, id, where);
}

static DT_NOINLINE dt_node *
cook_var(dt_ctx *ctx, dt_node *n)
{
	dt_ident *id = dt_ident_lookup(&ctx->c_globals, n->n_str);
	if (id != NULL) {
		switch (id->id_kind) {
		case DT_IDK_ENUMCONST:
			return (dt_node_int(ctx, n, id->id_value, id->id_type));
		case DT_IDK_INLINE:
			return (inline_use(ctx, id, n));
		case DT_IDK_ARRAY:
			dt_error_node(ctx, n, "D_ARR_BADREF", "%s is an "
			    "associative array and must be indexed",
			    n->n_str);
		default:
			n->n_ident = id;
			n->n_type = id->id_type;
			n->n_flags |= DT_NF_LVAL;
			return (n);
		}
	}
	const dif_builtin_t *bi = dif_builtin_lookup(n->n_str,
	    dt_strlen(n->n_str));
	if (bi != NULL) {
		if (bi->bi_array)
			dt_error_node(ctx, n, "D_ARR_BADREF", "%s[ ] must be "
			    "indexed", n->n_str);
		id = dt_ident_insert(ctx, &ctx->c_globals, n->n_str,
		    DT_IDK_BUILTIN);
		id->id_id = bi->bi_id;
		id->id_type = builtin_type(ctx, bi);
		n->n_ident = id;
		n->n_type = id->id_type;
		return (n);
	}
	if (dt_func_lookup(n->n_str) != NULL)
		dt_error_node(ctx, n, "D_FUNC_IDENT", "%s( ) may not be "
		    "referenced as a scalar", n->n_str);
	dt_error_node(ctx, n, "D_IDENT_UNDEF", "failed to resolve %s: "
	    "Unknown variable name", n->n_str);
}

/* An implicitly or explicitly declared D variable of a scope. */
static dt_ident *
dvar_get(dt_ctx *ctx, int scope, const char *name, dt_type *t, bool arr)
{
	dt_idhash *h = scope == DIF_SCOPE_THREAD ? &ctx->c_tls :
	    scope == DIF_SCOPE_LOCAL ? &ctx->c_locals : &ctx->c_globals;
	dt_ident *id = dt_ident_lookup(h, name);
	if (id != NULL || t == NULL)
		return (id);
	id = dt_ident_insert(ctx, h, name, arr ? DT_IDK_ARRAY : DT_IDK_VAR);
	id->id_scope = (uint8_t)scope;
	id->id_type = t;
	if (scope == DIF_SCOPE_THREAD)
		id->id_id = ctx->c_nexttls++;
	else if (scope == DIF_SCOPE_LOCAL)
		id->id_id = ctx->c_nextlocal++;
	else
		id->id_id = ctx->c_nextvar++;
	if (scope != DIF_SCOPE_LOCAL && !arr)
		dt_vardesc_add(ctx, id);
	return (id);
}

/* self->x / this->x as an rvalue: implicitly an int until assigned. */
static DT_NOINLINE dt_node *
cook_selfthis(dt_ctx *ctx, dt_node *n)
{
	int scope = n->n_kind == DT_N_SELF ? DIF_SCOPE_THREAD :
	    DIF_SCOPE_LOCAL;
	dt_ident *id = dvar_get(ctx, scope, n->n_str, NULL, false);
	if (id == NULL)
		id = dvar_get(ctx, scope, n->n_str, ctx->c_t_int, false);
	if (id->id_kind == DT_IDK_ARRAY)
		dt_error_node(ctx, n, "D_ARR_BADREF", "%s->%s is an "
		    "associative array and must be indexed", scope ==
		    DIF_SCOPE_THREAD ? "self" : "this", n->n_str);
	n->n_ident = id;
	n->n_type = id->id_type;
	n->n_flags |= DT_NF_LVAL;
	return (n);
}

/*
 * `name: a kernel data object, read as an unsigned integer of its size
 * (no CTF types).  The node becomes *(uintN_t *)address.
 */
static DT_NOINLINE dt_node *
cook_sym(dt_ctx *ctx, dt_node *n)
{
	const dt_opts *o = ctx->c_opts;
	uint64_t addr, size;
	if (o->o_symlookup == NULL)
		dt_error_node(ctx, n, "D_SYM_NOTYPES", "no symbolic type "
		    "information is available for `%s", n->n_str);
	if (o->o_symlookup(o->o_symlookup_arg, n->n_str, &addr, &size) != 0)
		dt_error_node(ctx, n, "D_SYM_BADREF", "failed to resolve `%s: "
		    "Unknown symbol name", n->n_str);
	dt_type *t = dt_type_int(ctx, size == 1 || size == 2 || size == 4 ?
	    (uint32_t)size : 8, false);
	dt_node *p = dt_node_int(ctx, n, (int64_t)addr, dt_type_ptr(ctx, t));
	n->n_kind = DT_N_OP1;
	n->n_op = DT_T_STAR;
	n->n_a = p;
	n->n_type = t;
	n->n_flags |= DT_NF_LVAL;
	return (n);
}

/* ---- constant folding ---- */

static int64_t
fold2(dt_ctx *ctx, dt_node *n, dt_type *t, int64_t a, int64_t b)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	bool s = t->ty_signed;
	switch (n->n_op) {
	case DT_T_PLUS: return ((int64_t)(ua + ub));
	case DT_T_MINUS: return ((int64_t)(ua - ub));
	case DT_T_STAR: return ((int64_t)(ua * ub));
	case DT_T_SLASH: case DT_T_MOD:
		if (b == 0)
			dt_error_node(ctx, n, "D_DIV_ZERO", "expression "
			    "contains division by zero");
		if (s && b == -1)
			return (n->n_op == DT_T_SLASH ? (int64_t)(0 - ua) : 0);
		if (n->n_op == DT_T_SLASH)
			return (s ? a / b : (int64_t)(ua / ub));
		return (s ? a % b : (int64_t)(ua % ub));
	case DT_T_BAND: return (a & b);
	case DT_T_BOR: return (a | b);
	case DT_T_XOR: return (a ^ b);
	case DT_T_LSH: return ((int64_t)(ua << (ub & 63)));
	case DT_T_RSH:
		if (s)
			return (a < 0 ? ~(~a >> (ub & 63)) : a >> (ub & 63));
		return ((int64_t)(ua >> (ub & 63)));
	case DT_T_LT: return (s ? a < b : ua < ub);
	case DT_T_LE: return (s ? a <= b : ua <= ub);
	case DT_T_GT: return (s ? a > b : ua > ub);
	case DT_T_GE: return (s ? a >= b : ua >= ub);
	case DT_T_EQ: return (a == b);
	case DT_T_NE: return (a != b);
	case DT_T_LAND: return (a != 0 && b != 0);
	case DT_T_LOR: return (a != 0 || b != 0);
	case DT_T_LXOR: return ((a != 0) != (b != 0));
	default: return (0);
	}
}

int64_t
dt_sema_const(dt_ctx *ctx, dt_node *n)
{
	n = cook(ctx, n);
	if (!is_const(n))
		dt_error_node(ctx, n, "D_DECL_ARRSUB", "expression must be an "
		    "integer constant");
	return (n->n_ival);
}

/* ---- unary operators ---- */

static void
need_lval(dt_ctx *ctx, dt_node *n, dt_node *e, dt_tokkind op)
{
	if (!(e->n_flags & DT_NF_LVAL) || !is_dvar(e))
		dt_error_node(ctx, n, "D_OP_LVAL", "operator %s requires "
		    "modifiable lvalue as an operand", opname(op));
}

static DT_NOINLINE dt_node *
cook_op1(dt_ctx *ctx, dt_node *n)
{
	char b[64];
	dt_node *a = n->n_a = cook(ctx, n->n_a);
	dt_type *t = a->n_type;
	switch (n->n_op) {
	case DT_T_PLUS: case DT_T_MINUS:
		if (!is_arith(t))
			dt_error_node(ctx, n, "D_OP_ARITH", "operator %s "
			    "requires an operand of arithmetic type",
			    opname(n->n_op));
		n->n_type = promote(ctx, t);
		if (is_const(a))
			return (dt_node_int(ctx, n, n->n_op == DT_T_MINUS ?
			    (int64_t)(0 - (uint64_t)a->n_ival) : a->n_ival,
			    n->n_type));
		return (n->n_op == DT_T_PLUS ? cast_to(ctx, a, n->n_type) : n);
	case DT_T_BNEG:
		if (!dt_type_isint(t))
			dt_error_node(ctx, n, "D_OP_INT", "operator %s "
			    "requires an operand of integral type",
			    opname(n->n_op));
		n->n_type = promote(ctx, t);
		if (is_const(a))
			return (dt_node_int(ctx, n, ~a->n_ival, n->n_type));
		return (n);
	case DT_T_LNEG:
		if (!dt_type_isscalar(t) && !dt_type_isstring(t))
			dt_error_node(ctx, n, "D_OP_SCALAR", "operator %s "
			    "requires an operand of scalar type",
			    opname(n->n_op));
		n->n_type = ctx->c_t_int;
		if (is_const(a))
			return (dt_node_int(ctx, n, a->n_ival == 0, n->n_type));
		return (n);
	case DT_T_STAR:
		if (t->ty_kind != DT_TK_PTR && t->ty_kind != DT_TK_ARRAY)
			dt_error_node(ctx, n, "D_DEREF_NONPTR", "cannot "
			    "dereference non-pointer type");
		if (t->ty_base->ty_kind == DT_TK_VOID)
			dt_error_node(ctx, n, "D_DEREF_VOID", "cannot "
			    "dereference pointer to void");
		if (!t->ty_base->ty_complete)
			dt_error_node(ctx, n, "D_DEREF_NONPTR", "cannot "
			    "dereference pointer to incomplete type %s",
			    tname(t->ty_base, b, sizeof (b)));
		n->n_type = t->ty_base;
		n->n_flags |= DT_NF_LVAL;
		return (n);
	case DT_T_BAND:
		if (is_dvar(a) || a->n_kind == DT_N_SELF ||
		    a->n_kind == DT_N_THIS || (a->n_kind == DT_N_INDEX &&
		    a->n_ival != -2))
			dt_error_node(ctx, n, "D_ADDROF_VAR", "cannot take "
			    "address of dynamic variable");
		if (!(a->n_flags & DT_NF_LVAL))
			dt_error_node(ctx, n, "D_ADDROF_LVAL", "unary & "
			    "operand must be an lvalue");
		n->n_type = dt_type_ptr(ctx, t);
		return (n);
	default:	/* ++ -- */
		need_lval(ctx, n, a, n->n_op);
		if (!dt_type_isscalar(t))
			dt_error_node(ctx, n, "D_OP_SCALAR", "operator %s "
			    "requires an operand of scalar type",
			    opname(n->n_op));
		n->n_type = t;
		return (n);
	}
}

/* ---- binary operators ---- */

static dt_node *
incompat(dt_ctx *ctx, dt_node *n)
{
	char a[64], b[64];
	dt_error_node(ctx, n, "D_OP_INCOMPAT", "operands have incompatible "
	    "types: \"%s\" %s \"%s\"", tname(n->n_a->n_type, a, sizeof (a)),
	    opname(n->n_op), tname(n->n_b->n_type, b, sizeof (b)));
}

static DT_NOINLINE dt_node *
cook_arith(dt_ctx *ctx, dt_node *n)
{
	dt_type *ta = n->n_a->n_type, *tb = n->n_b->n_type;
	dt_tokkind op = n->n_op;
	bool intop = op == DT_T_MOD || op == DT_T_BAND || op == DT_T_BOR ||
	    op == DT_T_XOR || op == DT_T_LSH || op == DT_T_RSH;
	/* pointer arithmetic: p + i, i + p, p - i, p - q */
	if ((op == DT_T_PLUS || op == DT_T_MINUS) &&
	    (ta->ty_kind == DT_TK_PTR || tb->ty_kind == DT_TK_PTR)) {
		if (ta->ty_kind == DT_TK_PTR && tb->ty_kind == DT_TK_PTR &&
		    op == DT_T_MINUS) {
			n->n_type = ctx->c_t_long;
			return (n);
		}
		if ((ta->ty_kind == DT_TK_PTR && is_arith(tb)) ||
		    (op == DT_T_PLUS && is_arith(ta))) {
			n->n_type = ta->ty_kind == DT_TK_PTR ? ta : tb;
			return (n);
		}
		return (incompat(ctx, n));
	}
	if (intop && (!dt_type_isint(ta) || !dt_type_isint(tb)))
		dt_error_node(ctx, n, "D_OP_INT", "operator %s requires "
		    "operands of integral type", opname(op));
	if (!is_arith(ta) || !is_arith(tb))
		dt_error_node(ctx, n, "D_OP_ARITH", "operator %s requires "
		    "operands of arithmetic type", opname(op));
	n->n_type = op == DT_T_LSH || op == DT_T_RSH ? promote(ctx, ta) :
	    arith_result(ctx, ta, tb);
	if ((op == DT_T_SLASH || op == DT_T_MOD) && is_const(n->n_b) &&
	    n->n_b->n_ival == 0)
		dt_error_node(ctx, n, "D_DIV_ZERO", "expression contains "
		    "division by zero");
	if (is_const(n->n_a) && is_const(n->n_b))
		return (dt_node_int(ctx, n, fold2(ctx, n, n->n_type,
		    fit(n->n_type, n->n_a->n_ival),
		    fit(n->n_type, n->n_b->n_ival)), n->n_type));
	return (n);
}

static DT_NOINLINE dt_node *
cook_rel(dt_ctx *ctx, dt_node *n)
{
	dt_type *ta = n->n_a->n_type, *tb = n->n_b->n_type;
	n->n_type = ctx->c_t_int;
	if (dt_type_isstring(ta) || dt_type_isstring(tb)) {
		if (!dt_type_isstring(ta) || !dt_type_isstring(tb))
			return (incompat(ctx, n));
		return (n);
	}
	if (!dt_type_isscalar(ta) || !dt_type_isscalar(tb))
		dt_error_node(ctx, n, "D_OP_SCALAR", "operator %s requires "
		    "operands of scalar type", opname(n->n_op));
	if (is_const(n->n_a) && is_const(n->n_b)) {
		dt_type *ct = arith_result(ctx, ta->ty_kind == DT_TK_PTR ?
		    ctx->c_t_ulong : ta, tb->ty_kind == DT_TK_PTR ?
		    ctx->c_t_ulong : tb);
		return (dt_node_int(ctx, n, fold2(ctx, n, ct,
		    fit(ct, n->n_a->n_ival), fit(ct, n->n_b->n_ival)),
		    n->n_type));
	}
	return (n);
}

static DT_NOINLINE dt_node *
cook_logical(dt_ctx *ctx, dt_node *n)
{
	dt_type *ta = n->n_a->n_type, *tb = n->n_b->n_type;
	if ((!dt_type_isscalar(ta) && !dt_type_isstring(ta)) ||
	    (!dt_type_isscalar(tb) && !dt_type_isstring(tb)))
		dt_error_node(ctx, n, "D_OP_SCALAR", "operator %s requires "
		    "operands of scalar type", opname(n->n_op));
	n->n_type = ctx->c_t_int;
	if (is_const(n->n_a) && is_const(n->n_b))
		return (dt_node_int(ctx, n, fold2(ctx, n, ctx->c_t_long,
		    n->n_a->n_ival, n->n_b->n_ival), n->n_type));
	/* a constant left operand decides or drops itself */
	if (is_const(n->n_a) && n->n_op != DT_T_LXOR) {
		bool av = n->n_a->n_ival != 0;
		if ((n->n_op == DT_T_LAND && !av) ||
		    (n->n_op == DT_T_LOR && av))
			return (dt_node_int(ctx, n, av, n->n_type));
		dt_node *z = dt_node_int(ctx, n, 0, ctx->c_t_int);
		dt_node *ne = dt_alloc(ctx, sizeof (*ne));
		*ne = *n;
		ne->n_op = DT_T_NE;
		ne->n_a = n->n_b;
		ne->n_b = z;
		if (dt_type_isstring(tb))
			return (n);	/* keep: string truth test */
		return (ne);
	}
	return (n);
}

static dt_node *cook_assign(dt_ctx *ctx, dt_node *n);

static DT_NOINLINE dt_node *
cook_op2(dt_ctx *ctx, dt_node *n)
{
	switch (n->n_op) {
	case DT_T_ASGN: case DT_T_ADD_EQ: case DT_T_SUB_EQ: case DT_T_MUL_EQ:
	case DT_T_DIV_EQ: case DT_T_MOD_EQ: case DT_T_AND_EQ: case DT_T_OR_EQ:
	case DT_T_XOR_EQ: case DT_T_LSH_EQ: case DT_T_RSH_EQ:
		return (cook_assign(ctx, n));
	default:
		break;
	}
	n->n_a = cook(ctx, n->n_a);
	n->n_b = cook(ctx, n->n_b);
	switch (n->n_op) {
	case DT_T_COMMA:
		n->n_type = n->n_b->n_type;
		return (n);
	case DT_T_LT: case DT_T_LE: case DT_T_GT: case DT_T_GE:
	case DT_T_EQ: case DT_T_NE:
		return (cook_rel(ctx, n));
	case DT_T_LAND: case DT_T_LOR: case DT_T_LXOR:
		return (cook_logical(ctx, n));
	default:
		return (cook_arith(ctx, n));
	}
}

static DT_NOINLINE dt_node *
cook_op3(dt_ctx *ctx, dt_node *n)
{
	n->n_a = cook(ctx, n->n_a);
	n->n_b = cook(ctx, n->n_b);
	n->n_c = cook(ctx, n->n_c);
	dt_type *ta = n->n_a->n_type, *tb = n->n_b->n_type,
	    *tc = n->n_c->n_type;
	if (!dt_type_isscalar(ta) && !dt_type_isstring(ta))
		dt_error_node(ctx, n, "D_OP_SCALAR", "operator ?: requires "
		    "a scalar first operand");
	if (dt_type_isstring(tb) && dt_type_isstring(tc)) {
		n->n_type = ctx->c_t_string;
	} else if (is_arith(tb) && is_arith(tc)) {
		n->n_type = arith_result(ctx, tb, tc);
	} else if (dt_type_isscalar(tb) && dt_type_isscalar(tc)) {
		n->n_type = tb->ty_kind == DT_TK_PTR ? tb : tc;
	} else if (tb == tc && tb->ty_kind != DT_TK_VOID) {
		n->n_type = tb;
	} else {
		char a[64], b[64];
		dt_error_node(ctx, n, "D_OP_INCOMPAT", "operator ?: operands "
		    "must have compatible types: \"%s\" and \"%s\"",
		    tname(tb, a, sizeof (a)), tname(tc, b, sizeof (b)));
	}
	if (is_const(n->n_a)) {	/* no code for the dead branch */
		dt_node *live = n->n_a->n_ival != 0 ? n->n_b : n->n_c;
		return (dt_type_isint(n->n_type) ? cast_to(ctx, live,
		    n->n_type) : live);
	}
	return (n);
}

/* ---- assignment ---- */

static dt_type *
array_keys(dt_ctx *ctx, dt_node *n, dt_ident *id, bool define)
{
	uint32_t nk = 0;
	dt_type *kt[DT_MAXKEYS];
	for (dt_node *k = n->n_args; k != NULL; k = k->n_next) {
		if (nk == DT_MAXKEYS)
			dt_error_node(ctx, k, "D_ARR_BADREF", "too many "
			    "associative array keys (limit %d)", DT_MAXKEYS);
		kt[nk++] = k->n_type;
		if (!dt_type_isscalar(k->n_type) &&
		    !dt_type_isstring(k->n_type))
			dt_error_node(ctx, k, "D_KEY_TYPE", "%s[ ] key #%u "
			    "is of an invalid type", id->id_name, nk);
	}
	if (!id->id_keys_known) {
		if (!define)
			return (NULL);
		id->id_nkeys = nk;
		for (uint32_t i = 0; i < nk; i++)
			id->id_keys[i] = kt[i];
		id->id_keys_known = true;
		return (NULL);
	}
	if (nk != id->id_nkeys)
		dt_error_node(ctx, n, "D_PROTO_LEN", "%s[ ] prototype "
		    "mismatch: %u arg%s passed, %u expected", id->id_name, nk,
		    nk == 1 ? "" : "s", id->id_nkeys);
	for (uint32_t i = 0; i < nk; i++) {
		if (assignable(id->id_keys[i], kt[i]))
			continue;
		char a[64], b[64];
		dt_error_node(ctx, n, "D_PROTO_ARG", "%s[ ] argument #%u is "
		    "incompatible with prototype:\n\tprototype: %s\n\t "
		    "argument: %s", id->id_name, i + 1,
		    tname(id->id_keys[i], a, sizeof (a)),
		    tname(kt[i], b, sizeof (b)));
	}
	return (NULL);
}

/* Resolve the target of an assignment, creating variables on first use. */
static DT_NOINLINE dt_node *
cook_lvalue(dt_ctx *ctx, dt_node *l, dt_type *rt, dt_tokkind op)
{
	int scope = DIF_SCOPE_GLOBAL;
	const char *name = l->n_str;
	bool arr = false;
	dt_node *base = l;
	if (l->n_kind == DT_N_INDEX) {
		base = l->n_a;
		arr = true;
		name = base->n_str;
		if (base->n_kind == DT_N_THIS)
			dt_error_node(ctx, l, "D_ARR_LOCAL", "local variables "
			    "may not be used as associative arrays");
		if (base->n_kind != DT_N_VAR && base->n_kind != DT_N_SELF)
			dt_error_node(ctx, l, "D_OP_LVAL", "operator %s "
			    "requires modifiable lvalue as an operand",
			    opname(op));
		for (dt_node **k = &l->n_args; *k != NULL; k = &(*k)->n_next) {
			dt_node *nx = (*k)->n_next;
			*k = cook(ctx, *k);
			(*k)->n_next = nx;
		}
	}
	if (base->n_kind == DT_N_SELF)
		scope = DIF_SCOPE_THREAD;
	else if (base->n_kind == DT_N_THIS)
		scope = DIF_SCOPE_LOCAL;
	else if (base->n_kind != DT_N_VAR)
		return (cook(ctx, l));	/* not a D variable: checked later */
	dt_ident *id = dvar_get(ctx, scope, name, NULL, arr);
	if (id == NULL && scope == DIF_SCOPE_GLOBAL) {
		dt_ident *g = dt_ident_lookup(&ctx->c_globals, name);
		(void)g;
		if (dif_builtin_lookup(name, dt_strlen(name)) != NULL ||
		    dt_func_lookup(name) != NULL)
			dt_error_node(ctx, l, "D_OP_LVAL", "operator %s "
			    "requires modifiable lvalue as an operand",
			    opname(op));
	}
	if (id == NULL && op != DT_T_ASGN)
		return (cook(ctx, l));	/* reports the undefined name */
	if (id == NULL) {
		if (rt->ty_kind == DT_TK_VOID || rt->ty_kind == DT_TK_STACK ||
		    rt->ty_kind == DT_TK_SYMADDR || rt->ty_kind == DT_TK_AGGFN)
			dt_error_node(ctx, l, "D_OP_INCOMPAT", "operator = "
			    "cannot be applied to a void or action value");
		id = dvar_get(ctx, scope, name, rt, arr);
		if (arr && scope != DIF_SCOPE_LOCAL)
			dt_vardesc_add(ctx, id);
	}
	if (id->id_kind != DT_IDK_VAR && id->id_kind != DT_IDK_ARRAY)
		dt_error_node(ctx, l, "D_OP_LVAL", "operator %s requires "
		    "modifiable lvalue as an operand", opname(op));
	if (arr != (id->id_kind == DT_IDK_ARRAY))
		dt_error_node(ctx, l, arr ? "D_IDENT_BADREF" : "D_ARR_BADREF",
		    arr ? "%s is a scalar variable and may not be indexed" :
		    "%s is an associative array and must be indexed", name);
	if (arr)
		array_keys(ctx, l, id, true);
	base->n_ident = id;
	l->n_ident = id;
	l->n_type = id->id_type;
	base->n_type = id->id_type;
	l->n_flags |= DT_NF_LVAL | DT_NF_COOKED;
	return (l);
}

static dt_tokkind
compound_op(dt_tokkind k)
{
	switch (k) {
	case DT_T_ADD_EQ: return (DT_T_PLUS);
	case DT_T_SUB_EQ: return (DT_T_MINUS);
	case DT_T_MUL_EQ: return (DT_T_STAR);
	case DT_T_DIV_EQ: return (DT_T_SLASH);
	case DT_T_MOD_EQ: return (DT_T_MOD);
	case DT_T_AND_EQ: return (DT_T_BAND);
	case DT_T_OR_EQ: return (DT_T_BOR);
	case DT_T_XOR_EQ: return (DT_T_XOR);
	case DT_T_LSH_EQ: return (DT_T_LSH);
	default: return (DT_T_RSH);
	}
}

static DT_NOINLINE dt_node *
cook_assign(dt_ctx *ctx, dt_node *n)
{
	if (n->n_a->n_kind == DT_N_AGG)
		dt_error_node(ctx, n, "D_AGG_FUNC", "@%s must be assigned the "
		    "result of an aggregating function", n->n_a->n_str);
	n->n_b = cook(ctx, n->n_b);
	n->n_a = cook_lvalue(ctx, n->n_a, n->n_b->n_type, n->n_op);
	need_lval(ctx, n, n->n_a, n->n_op);
	dt_type *lt = n->n_a->n_type, *rt = n->n_b->n_type;
	if (n->n_op != DT_T_ASGN) {
		/* check as the binary operation it abbreviates */
		dt_node tmp = *n;
		tmp.n_op = compound_op(n->n_op);
		tmp.n_flags = 0;
		dt_node *r = cook_arith(ctx, &tmp);
		(void)r;
		if (!dt_type_isscalar(lt))
			dt_error_node(ctx, n, "D_OP_SCALAR", "operator %s "
			    "requires operands of scalar type",
			    opname(n->n_op));
	} else if (!assignable(lt, rt)) {
		char a[64], b[64];
		dt_error_node(ctx, n, "D_OP_INCOMPAT", "operands have "
		    "incompatible types: \"%s\" = \"%s\"",
		    tname(lt, a, sizeof (a)), tname(rt, b, sizeof (b)));
	}
	if (n->n_op == DT_T_ASGN && dt_type_isint(lt) && lt != rt)
		n->n_b = cast_to(ctx, n->n_b, lt);
	n->n_type = lt;
	return (n);
}

/* ---- postfix forms ---- */

static DT_NOINLINE dt_node *
cook_index(dt_ctx *ctx, dt_node *n)
{
	dt_node *b = n->n_a;
	for (dt_node **k = &n->n_args; *k != NULL; k = &(*k)->n_next) {
		dt_node *nx = (*k)->n_next;
		*k = cook(ctx, *k);
		(*k)->n_next = nx;
	}
	if (b->n_kind == DT_N_VAR) {
		const dif_builtin_t *bi = dif_builtin_lookup(b->n_str,
		    dt_strlen(b->n_str));
		if (bi != NULL && bi->bi_array) {
			if (n->n_args->n_next != NULL)
				dt_error_node(ctx, n, "D_ARGS_IDX", "%s[ ] "
				    "takes one index", b->n_str);
			if (!dt_type_isint(n->n_args->n_type))
				dt_error_node(ctx, n, "D_ARGS_IDX", "%s[ ] "
				    "index must be an integer", b->n_str);
			if (is_const(n->n_args) && bi->bi_id == DIF_VAR_ARGS &&
			    (n->n_args->n_ival < 0 || n->n_args->n_ival > 9))
				dt_error_node(ctx, n, "D_ARGS_IDX", "index "
				    "%lld is out of range for %s args[ ]",
				    (long long)n->n_args->n_ival, "probe");
			b->n_ival = bi->bi_id;
			n->n_type = dt_type_lookup(ctx, "int64_t");
			n->n_ival = -1;		/* marks a built-in array */
			return (n);
		}
	}
	if (b->n_kind == DT_N_VAR || b->n_kind == DT_N_SELF ||
	    b->n_kind == DT_N_THIS) {
		int scope = b->n_kind == DT_N_SELF ? DIF_SCOPE_THREAD :
		    b->n_kind == DT_N_THIS ? DIF_SCOPE_LOCAL :
		    DIF_SCOPE_GLOBAL;
		dt_ident *id = dvar_get(ctx, scope, b->n_str, NULL, true);
		if (id == NULL && scope == DIF_SCOPE_GLOBAL &&
		    dt_ident_lookup(&ctx->c_globals, b->n_str) == NULL &&
		    dif_builtin_lookup(b->n_str, dt_strlen(b->n_str)) == NULL)
			dt_error_node(ctx, b, "D_IDENT_UNDEF", "failed to "
			    "resolve %s: Unknown variable name", b->n_str);
		if (id == NULL && scope == DIF_SCOPE_THREAD)
			id = dvar_get(ctx, scope, b->n_str, ctx->c_t_int, true);
		if (scope == DIF_SCOPE_LOCAL)
			dt_error_node(ctx, n, "D_ARR_LOCAL", "local variables "
			    "may not be used as associative arrays");
		if (id != NULL && id->id_kind == DT_IDK_ARRAY) {
			array_keys(ctx, n, id, true);
			b->n_ident = id;
			n->n_ident = id;
			n->n_type = id->id_type;
			n->n_flags |= DT_NF_LVAL;
			return (n);
		}
	}
	/* pointer or array indexing: p[i] is *(p + i) */
	b = n->n_a = cook(ctx, b);
	if (b->n_type->ty_kind != DT_TK_PTR &&
	    b->n_type->ty_kind != DT_TK_ARRAY) {
		if (is_dvar(b))
			dt_error_node(ctx, n, "D_IDENT_BADREF", "%s is a "
			    "scalar variable and may not be indexed",
			    b->n_ident->id_name);
		dt_error_node(ctx, n, "D_OP_ARRFUN", "[ ] operator must be "
		    "applied to an array, pointer or associative array");
	}
	if (n->n_args->n_next != NULL || !dt_type_isint(n->n_args->n_type))
		dt_error_node(ctx, n, "D_OP_INT", "[ ] index must be a single "
		    "integer");
	n->n_type = b->n_type->ty_base;
	n->n_flags |= DT_NF_LVAL;
	n->n_ival = -2;		/* marks memory indexing */
	return (n);
}

static dt_node *cook_xlate_member(dt_ctx *ctx, dt_node *n);

static DT_NOINLINE dt_node *
cook_member(dt_ctx *ctx, dt_node *n)
{
	char b[64];
	if (n->n_a->n_kind == DT_N_XLATE)
		return (cook_xlate_member(ctx, n));
	dt_node *a = n->n_a = cook(ctx, n->n_a);
	dt_type *t = a->n_type;
	if (n->n_op == DT_T_ARROW) {
		if (t->ty_kind != DT_TK_PTR)
			dt_error_node(ctx, n, "D_OP_PTR", "operator -> must be "
			    "applied to a pointer");
		t = t->ty_base;
	}
	if (t->ty_kind != DT_TK_STRUCT && t->ty_kind != DT_TK_UNION)
		dt_error_node(ctx, n, "D_OP_SOU", "operator %s cannot be "
		    "applied to a forward declaration or a non-struct/union "
		    "type: %s", opname(n->n_op), tname(t, b, sizeof (b)));
	if (!t->ty_complete)
		dt_error_node(ctx, n, "D_OP_INCOMPLETE", "operator %s cannot "
		    "be applied to incomplete type %s", opname(n->n_op),
		    tname(t, b, sizeof (b)));
	for (dt_member *m = t->ty_members; m != NULL; m = m->m_next) {
		if (dt_streq(m->m_name, n->n_str)) {
			n->n_type = m->m_type;
			n->n_ival = m->m_off;
			n->n_flags |= DT_NF_LVAL;
			return (n);
		}
	}
	dt_error_node(ctx, n, "D_TYPE_MEMBER", "%s is not a member of %s",
	    n->n_str, tname(t, b, sizeof (b)));
}

/* xlate<T>(e)->m: the translator's expression for m, with e bound. */
static DT_NOINLINE dt_node *
cook_xlate_member(dt_ctx *ctx, dt_node *n)
{
	char a[64], b[64];
	dt_node *x = n->n_a;
	dt_type *out = x->n_ctype;
	if (n->n_op == DT_T_ARROW) {
		if (out->ty_kind != DT_TK_PTR)
			dt_error_node(ctx, n, "D_OP_PTR", "operator -> must be "
			    "applied to a pointer");
		out = out->ty_base;
	} else if (out->ty_kind == DT_TK_PTR) {
		dt_error_node(ctx, n, "D_OP_SOU", "operator . cannot be "
		    "applied to a pointer");
	}
	x->n_a = cook(ctx, x->n_a);
	dt_ident *xl = dt_xlator_lookup(ctx, out, x->n_a->n_type);
	if (xl == NULL)
		dt_error_node(ctx, x, "D_XLATE_NONE", "translator does not "
		    "exist: %s -> %s", tname(x->n_a->n_type, a, sizeof (a)),
		    tname(out, b, sizeof (b)));
	for (dt_node *m = xl->id_xlexprs; m != NULL; m = m->n_next) {
		if (!dt_streq(m->n_str, n->n_str))
			continue;
		/* bind the input name as an inline for this expansion */
		dt_ident *arg = dt_ident_insert(ctx, &ctx->c_globals,
		    xl->id_expr->n_str, DT_IDK_INLINE);
		arg->id_type = x->n_a->n_type;
		arg->id_expr = x->n_a;
		x->n_a->n_flags |= DT_NF_COOKED;
		dt_node *e = cook(ctx, clone(ctx, m->n_a, n));
		arg->id_name = "";	/* unbind */
		return (e);
	}
	dt_error_node(ctx, n, "D_XLATE_MEMB", "translator member %s is not "
	    "defined for %s", n->n_str, tname(out, b, sizeof (b)));
}

static DT_NOINLINE dt_node *
cook_cast(dt_ctx *ctx, dt_node *n)
{
	char a[64], b[64];
	dt_node *e = n->n_a = cook(ctx, n->n_a);
	dt_type *to = n->n_ctype, *from = e->n_type;
	n->n_type = to;
	if (to->ty_kind == DT_TK_VOID)
		return (n);
	if ((dt_type_isscalar(to) && dt_type_isscalar(from)) ||
	    (dt_type_isstring(to) && dt_type_isstring(from))) {
		if (is_const(e) && dt_type_isint(to))
			return (dt_node_int(ctx, n, e->n_ival, to));
		return (n);
	}
	dt_error_node(ctx, n, "D_CAST", "invalid cast expression: \"%s\" to "
	    "\"%s\"", tname(from, a, sizeof (a)), tname(to, b, sizeof (b)));
}

static DT_NOINLINE dt_node *
cook_sizeof(dt_ctx *ctx, dt_node *n)
{
	dt_type *t = n->n_ctype;
	if (t == NULL) {
		n->n_a = cook(ctx, n->n_a);
		t = n->n_a->n_type;
	}
	if (t->ty_kind == DT_TK_VOID || !t->ty_complete ||
	    t->ty_kind == DT_TK_STACK || t->ty_kind == DT_TK_AGGFN ||
	    t->ty_kind == DT_TK_SYMADDR)
		dt_error_node(ctx, n, "D_SIZEOF_TYPE", "cannot apply sizeof "
		    "to an expression of type %s", t->ty_name != NULL ?
		    t->ty_name : "incomplete");
	return (dt_node_int(ctx, n, t->ty_size, ctx->c_t_ulong));
}

static DT_NOINLINE dt_node *
cook_offsetof(dt_ctx *ctx, dt_node *n)
{
	char b[64];
	dt_type *t = n->n_ctype;
	if ((t->ty_kind != DT_TK_STRUCT && t->ty_kind != DT_TK_UNION) ||
	    !t->ty_complete)
		dt_error_node(ctx, n, "D_OFFSETOF_TYPE", "offsetof operand "
		    "must be a struct or union type");
	for (dt_member *m = t->ty_members; m != NULL; m = m->m_next)
		if (dt_streq(m->m_name, n->n_str))
			return (dt_node_int(ctx, n, m->m_off, ctx->c_t_ulong));
	dt_error_node(ctx, n, "D_TYPE_MEMBER", "%s is not a member of %s",
	    n->n_str, tname(t, b, sizeof (b)));
}

static DT_NOINLINE dt_node *
cook_stringof(dt_ctx *ctx, dt_node *n)
{
	char b[64];
	n->n_a = cook(ctx, n->n_a);
	dt_type *t = n->n_a->n_type;
	if (!dt_type_isscalar(t) && !dt_type_isstring(t) &&
	    !(t->ty_kind == DT_TK_ARRAY && t->ty_base->ty_size == 1))
		dt_error_node(ctx, n, "D_STRINGOF_TYPE", "stringof( ) "
		    "operand must be of scalar or string type, not %s",
		    tname(t, b, sizeof (b)));
	n->n_type = ctx->c_t_string;
	return (n);
}

/* ---- calls (subroutines in expressions) ---- */


static DT_NOINLINE dt_node *
cook_agg_ref(dt_ctx *ctx, dt_node *n)
{
	dt_error_node(ctx, n, "D_AGG_SCALAR", "aggregation @%s may not be "
	    "used as a scalar", n->n_str);
}

/* ---- the dispatcher ---- */

static dt_node *
cook(dt_ctx *ctx, dt_node *n)
{
	if (n->n_flags & DT_NF_COOKED)
		return (n);
	if (++ctx->c_depth > DT_MAXDEPTH)
		dt_error_node(ctx, n, "D_SYNTAX", "expression nesting is too "
		    "deep");
	dt_node *r;
	switch (n->n_kind) {
	case DT_N_INT: case DT_N_STR: r = n; break;
	case DT_N_VAR: r = cook_var(ctx, n); break;
	case DT_N_SELF: case DT_N_THIS: r = cook_selfthis(ctx, n); break;
	case DT_N_SYM: r = cook_sym(ctx, n); break;
	case DT_N_OP1: r = cook_op1(ctx, n); break;
	case DT_N_OP2: r = cook_op2(ctx, n); break;
	case DT_N_OP3: r = cook_op3(ctx, n); break;
	case DT_N_CALL: r = dt_cook_call(ctx, n, false); break;
	case DT_N_INDEX: r = cook_index(ctx, n); break;
	case DT_N_AGG: r = cook_agg_ref(ctx, n); break;
	case DT_N_MEMBER: r = cook_member(ctx, n); break;
	case DT_N_CAST: r = cook_cast(ctx, n); break;
	case DT_N_SIZEOF: r = cook_sizeof(ctx, n); break;
	case DT_N_OFFSETOF: r = cook_offsetof(ctx, n); break;
	case DT_N_STRINGOF: r = cook_stringof(ctx, n); break;
	case DT_N_XLATE:
		dt_error_node(ctx, n, "D_XLATE_SOU", "xlate<> may only be used "
		    "with the . or -> operator in Sonde");
	default:
		dt_error_node(ctx, n, "D_SYNTAX", "unexpected expression");
	}
	ctx->c_depth--;
	r->n_flags |= DT_NF_COOKED;
	return (r);
}

dt_node *
dt_sema_expr(dt_ctx *ctx, dt_node *n)
{
	return (cook(ctx, n));
}


void
dt_sema_init(dt_ctx *ctx)
{
	dt_types_init(ctx);
	ctx->c_nextvar = DIF_VAR_USER_BASE;
	ctx->c_nexttls = DIF_VAR_USER_BASE;
	ctx->c_nextlocal = DIF_VAR_USER_BASE;
}
