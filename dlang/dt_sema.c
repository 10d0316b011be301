/*
 * dlang/dt_sema.c: the semantic pass over expressions ("cooking").
 *
 * dt_sema_expr() walks an expression tree bottom-up and, for each node:
 * resolves identifiers (built-ins, D variables, inlines, enumerators),
 * computes its type, checks D's operand rules with DTrace's error tags and
 * messages, marks lvalues, and folds integer constants (C semantics at the
 * operand's width, D_DIV_ZERO on a constant division by zero, and constant
 * conditions keep only the live branch, so no code is emitted for the dead
 * one).  The null pointer constant (0, NULL) also stands for "no string",
 * as in DTrace: s = 0 clears a string variable, s == NULL tests its
 * address, c ? s : NULL is a string (dt_sema_is_null).  *s and s[i] read
 * a string's chars (dt_sema_str_chars).  A cooked node may be replaced by another (a folded constant, an
 * inline's body); callers use the returned node.  A chain of one
 * left-associative operator (1 + 1 + ... + 1) is cooked from its innermost
 * link outwards in a loop (cook_chain), so its length is not nesting.
 *
 * Names and references (identifiers, indexing, members, casts, sizeof...)
 * are cooked in dt_sema_ref.c; statements, actions and aggregations in
 * dt_action.c and dt_agg.c; declarations and types live in dt_decl.c.
 * Order: helpers, constant folding, unary, binary, assignment, the
 * dispatcher.
 *
 * Tests: tests/d/err.D_OP_*.d; tests/dlang/fold_*.S; tests/d/integers;
 *        tests/d/strings/tst.null_assign.d, tst.string_index.d
 */
#include "dlang/dt.h"

static dt_node *cook_lvalue(dt_ctx *ctx, dt_node *l, dt_type *rt,
    dt_tokkind op);

/* ---- helpers ---- */

const char *dt_sema_tname(const dt_type *t, char *buf, size_t len)
{
	dt_type_name(t, buf, len);
	return buf;
}

bool dt_sema_is_const(const dt_node *n)
{
	return (n->n_flags & DT_NF_CONST) != 0;
}

static bool is_arith(const dt_type *t)
{
	return dt_type_isint(t);
}

/* Truncate/extend v to the width and signedness of integer type t. */
static int64_t fit(const dt_type *t, int64_t v)
{
	uint32_t sz = t->ty_kind == DT_TK_PTR ? 8 : t->ty_size;
	if (sz >= 8 || sz == 0)
		return v;
	uint64_t mask = (1ULL << (sz * 8)) - 1, u = (uint64_t)v & mask;
	if (t->ty_signed && (u >> (sz * 8 - 1)) != 0)
		u |= ~mask;
	return (int64_t)u;
}

dt_node *dt_node_int(dt_ctx *ctx, const dt_node *where, int64_t v, dt_type *type)
{
	dt_node *n = dt_alloc(ctx, sizeof(*n));
	n->n_kind = DT_N_INT;
	n->n_line = where->n_line;
	n->n_col = where->n_col;
	n->n_type = type;
	n->n_ival = fit(type, v);
	n->n_flags = DT_NF_CONST | DT_NF_COOKED;
	n->n_reg = -1;
	return n;
}

/* C's usual arithmetic conversions for two integer types. */
static dt_type *arith_result(dt_ctx *ctx, const dt_type *a, const dt_type *b)
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
	return dt_type_int(ctx, sa, !(ua || ub));
}

static dt_type *promote(dt_ctx *ctx, dt_type *t)
{
	if (t->ty_kind == DT_TK_ENUM || t->ty_size < 4)
		return ctx->c_t_int;
	return t;
}

/*
 * The null pointer constant: an integer constant 0 or NULL ((void *)0).
 * DTrace lets it stand for "no string": s = 0 clears a string variable,
 * s == NULL tests the string's address, c ? s : NULL chooses it.
 */
bool dt_sema_is_null(const dt_node *n)
{
	return (dt_sema_is_const(n) && n->n_ival == 0 &&
	    (dt_type_isint(n->n_type) || (n->n_type->ty_kind == DT_TK_PTR &&
	    n->n_type->ty_base->ty_kind == DT_TK_VOID)));
}

/* Can a value of type `from` be stored into something of type `to`? */
bool dt_sema_assignable(const dt_type *to, const dt_type *from)
{
	if (dt_type_isstring(to) || dt_type_isstring(from))
		/* a string and a char * are assignable to each other */
		return (dt_type_isstrcompat(to) && dt_type_isstrcompat(from) &&
		    to->ty_kind != DT_TK_ARRAY && from->ty_kind != DT_TK_ARRAY);
	if (dt_type_isscalar(to) && dt_type_isscalar(from))
		return true;
	if (to->ty_kind == DT_TK_FLOAT && from->ty_kind == DT_TK_FLOAT)
		return to->ty_size == from->ty_size;
	if (to->ty_kind == from->ty_kind && (to->ty_kind == DT_TK_STRUCT ||
	    to->ty_kind == DT_TK_UNION))
		return to == from;
	return false;
}

bool dt_sema_is_dvar(const dt_node *n)
{
	return (n->n_ident != NULL && (n->n_ident->id_kind == DT_IDK_VAR ||
	    n->n_ident->id_kind == DT_IDK_ARRAY));
}

/* ---- constant folding ---- */

static int64_t fold2(dt_ctx *ctx, dt_node *n, dt_type *t, int64_t a, int64_t b)
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
			return n->n_op == DT_T_SLASH ? (int64_t)(0 - ua) : 0;
		if (n->n_op == DT_T_SLASH)
			return s ? a / b : (int64_t)(ua / ub);
		return s ? a % b : (int64_t)(ua % ub);
	case DT_T_BAND: return (a & b);
	case DT_T_BOR: return (a | b);
	case DT_T_XOR: return (a ^ b);
	case DT_T_LSH: return ((int64_t)(ua << (ub & 63)));
	case DT_T_RSH:
		if (s)
			return a < 0 ? ~(~a >> (ub & 63)) : a >> (ub & 63);
		return (int64_t)(ua >> (ub & 63));
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

int64_t dt_sema_const(dt_ctx *ctx, dt_node *n)
{
	n = dt_sema_expr(ctx, n);
	if (!dt_sema_is_const(n))
		dt_error_node(ctx, n, "D_DECL_ARRSUB", "expression must be an "
		    "integer constant");
	return n->n_ival;
}

/* ---- unary operators ---- */

static void need_lval(dt_ctx *ctx, dt_node *n, dt_node *e, dt_tokkind op)
{
	if (e->n_kind == DT_N_SYM)	/* kernel memory is an lvalue D cannot write */
		dt_error_node(ctx, n, "D_OP_WRITE", "operator %s can only be "
		    "applied to a writable variable", dt_tok_name(op));
	if ((e->n_flags & DT_NF_LVAL) && dt_sema_is_memlval(e)) {
		dt_sema_memstore_check(ctx, n, e, op);
		n->n_flags |= DT_NF_MEMSTORE;	/* *p, p->m, p[i]: scratch */
		return;
	}
	if (!(e->n_flags & DT_NF_LVAL) || !dt_sema_is_dvar(e))
		dt_error_node(ctx, n, "D_OP_LVAL", "operator %s requires "
		    "modifiable lvalue as an operand", dt_tok_name(op));
}

static DT_NOINLINE dt_node *cook_op1(dt_ctx *ctx, dt_node *n)
{
	char b[64];
	if ((n->n_op == DT_T_INC || n->n_op == DT_T_DEC ||
	    n->n_op == DT_T_BAND) && dt_bag_is_ref(ctx, n->n_a))
		dt_bag_op_error(ctx, n);	/* bag->k++, &bag->k */
	if (n->n_op == DT_T_INC || n->n_op == DT_T_DEC)
		n->n_a = cook_lvalue(ctx, n->n_a, ctx->c_t_int, n->n_op);
	dt_node *a = n->n_a = dt_sema_expr(ctx, n->n_a);
	dt_type *t = a->n_type;
	switch (n->n_op) {
	case DT_T_PLUS: case DT_T_MINUS:
		if (!is_arith(t))
			dt_error_node(ctx, n, "D_OP_ARITH", "operator %s "
			    "requires an operand of arithmetic type",
			    dt_tok_name(n->n_op));
		n->n_type = promote(ctx, t);
		if (dt_sema_is_const(a))
			return (dt_node_int(ctx, n, n->n_op == DT_T_MINUS ?
			    (int64_t)(0 - (uint64_t)a->n_ival) : a->n_ival,
			    n->n_type));
		return n->n_op == DT_T_PLUS ? dt_sema_cast_to(ctx, a, n->n_type) : n;
	case DT_T_BNEG:
		if (!dt_type_isint(t))
			dt_error_node(ctx, n, "D_OP_INT", "operator %s "
			    "requires an operand of integral type",
			    dt_tok_name(n->n_op));
		n->n_type = promote(ctx, t);
		if (dt_sema_is_const(a))
			return dt_node_int(ctx, n, ~a->n_ival, n->n_type);
		return n;
	case DT_T_LNEG:
		if (!dt_type_isscalar(t))	/* DTrace: a string is not */
			dt_error_node(ctx, n, "D_OP_SCALAR", "operator %s "
			    "requires an operand of scalar type",
			    dt_tok_name(n->n_op));
		n->n_type = ctx->c_t_int;
		if (dt_sema_is_const(a))
			return dt_node_int(ctx, n, a->n_ival == 0, n->n_type);
		return n;
	case DT_T_STAR:
		if (dt_type_isstring(t)) {	/* *s: its first char, a value */
			n->n_a = dt_sema_str_chars(ctx, a);
			n->n_type = ctx->c_t_char;
			return n;
		}
		if (t->ty_kind != DT_TK_PTR && t->ty_kind != DT_TK_ARRAY)
			dt_error_node(ctx, n, "D_DEREF_NONPTR", "cannot "
			    "dereference non-pointer type");
		if (t->ty_base->ty_kind == DT_TK_VOID)
			dt_error_node(ctx, n, "D_DEREF_VOID", "cannot "
			    "dereference pointer to void");
		if (!t->ty_base->ty_complete)
			dt_error_node(ctx, n, "D_DEREF_NONPTR", "cannot "
			    "dereference pointer to incomplete type %s",
			    dt_sema_tname(t->ty_base, b, sizeof(b)));
		n->n_type = t->ty_base;
		n->n_flags |= DT_NF_LVAL;
		return n;
	case DT_T_BAND:
		if (dt_sema_is_dvar(a) || a->n_kind == DT_N_SELF ||
		    a->n_kind == DT_N_THIS || (a->n_kind == DT_N_INDEX &&
		    a->n_ival != -2))
			dt_error_node(ctx, n, "D_ADDROF_VAR", "cannot take "
			    "address of dynamic variable");
		if (!(a->n_flags & DT_NF_LVAL))
			dt_error_node(ctx, n, "D_ADDROF_LVAL", "unacceptable "
			    "operand for unary & operator");
		if (t->ty_bits != 0)
			dt_error_node(ctx, n, "D_ADDROF_BITFIELD", "cannot "
			    "take address of bit-field");
		n->n_type = dt_type_ptr(ctx, t);
		return n;
	default:	/* ++ -- : DTrace's order and words */
		if (!dt_type_isscalar(t))
			dt_error_node(ctx, n, "D_OP_SCALAR", "operator %s "
			    "requires operand of scalar type",
			    dt_tok_name(n->n_op));
		if (t->ty_kind == DT_TK_PTR && t->ty_base->ty_kind == DT_TK_VOID)
			dt_error_node(ctx, n, "D_OP_VFPTR", "operator %s "
			    "requires an operand of known size",
			    dt_tok_name(n->n_op));
		need_lval(ctx, n, a, n->n_op);
		n->n_type = t;
		return n;
	}
}

/* ---- binary operators ---- */

static dt_node *incompat(dt_ctx *ctx, dt_node *n)
{
	char a[64], b[64];
	dt_error_node(ctx, n, "D_OP_INCOMPAT", "operands have incompatible "
	    "types: \"%s\" %s \"%s\"", dt_sema_tname(n->n_a->n_type, a, sizeof(a)),
	    dt_tok_name(n->n_op), dt_sema_tname(n->n_b->n_type, b, sizeof(b)));
}

static DT_NOINLINE dt_node *cook_arith(dt_ctx *ctx, dt_node *n)
{
	if (n->n_op == DT_T_PLUS || n->n_op == DT_T_MINUS) {
		n->n_a = dt_sema_decay(ctx, n->n_a);	/* a + i: &a[0] + i */
		n->n_b = dt_sema_decay(ctx, n->n_b);
	}
	dt_type *ta = n->n_a->n_type, *tb = n->n_b->n_type;
	dt_tokkind op = n->n_op;
	bool intop = op == DT_T_MOD || op == DT_T_BAND || op == DT_T_BOR ||
	    op == DT_T_XOR || op == DT_T_LSH || op == DT_T_RSH;
	/* pointer arithmetic: p + i, i + p, p - i, p - q */
	if ((op == DT_T_PLUS || op == DT_T_MINUS) &&
	    (ta->ty_kind == DT_TK_PTR || tb->ty_kind == DT_TK_PTR)) {
		if (ta->ty_kind == DT_TK_PTR && tb->ty_kind == DT_TK_PTR &&
		    op == DT_T_MINUS) {
			if (!dt_sema_ptr_compat(ta, n->n_b))
				return incompat(ctx, n);
			n->n_type = ctx->c_t_long;
			return n;
		}
		if ((ta->ty_kind == DT_TK_PTR && is_arith(tb)) ||
		    (op == DT_T_PLUS && is_arith(ta))) {
			n->n_type = ta->ty_kind == DT_TK_PTR ? ta : tb;
			return n;
		}
		return incompat(ctx, n);
	}
	/* DTrace: + and - take integers and pointers only */
	if ((op == DT_T_PLUS || op == DT_T_MINUS) && (!is_arith(ta) ||
	    !is_arith(tb)))
		return incompat(ctx, n);
	if (intop && (!dt_type_isint(ta) || !dt_type_isint(tb)))
		dt_error_node(ctx, n, "D_OP_INT", "operator %s requires "
		    "operands of integral type", dt_tok_name(op));
	if (!is_arith(ta) || !is_arith(tb))
		dt_error_node(ctx, n, "D_OP_ARITH", "operator %s requires "
		    "operands of arithmetic type", dt_tok_name(op));
	n->n_type = op == DT_T_LSH || op == DT_T_RSH ? promote(ctx, ta) :
	    arith_result(ctx, ta, tb);
	if ((op == DT_T_SLASH || op == DT_T_MOD) && dt_sema_is_const(n->n_b) &&
	    n->n_b->n_ival == 0)
		dt_error_node(ctx, n, "D_DIV_ZERO", "expression contains "
		    "division by zero");
	if (dt_sema_is_const(n->n_a) && dt_sema_is_const(n->n_b))
		return (dt_node_int(ctx, n, fold2(ctx, n, n->n_type,
		    fit(n->n_type, n->n_a->n_ival),
		    fit(n->n_type, n->n_b->n_ival)), n->n_type));
	return n;
}

static DT_NOINLINE dt_node *cook_rel(dt_ctx *ctx, dt_node *n)
{
	dt_type *ta = n->n_a->n_type, *tb = n->n_b->n_type;
	n->n_type = ctx->c_t_int;
	if ((n->n_op == DT_T_EQ || n->n_op == DT_T_NE) &&
	    ((dt_type_isstring(ta) && dt_sema_is_null(n->n_b)) ||
	    (dt_type_isstring(tb) && dt_sema_is_null(n->n_a)))) {
		/* s == NULL, 0 != s: DTrace tests the string's address */
		n->n_a = dt_sema_cast_to(ctx, n->n_a, ctx->c_t_ulong);
		n->n_b = dt_sema_cast_to(ctx, n->n_b, ctx->c_t_ulong);
		return n;
	}
	if (dt_type_isstring(ta) || dt_type_isstring(tb)) {
		/* a char * or char [n] compares with a string as a string */
		if (!dt_type_isstrcompat(ta) || !dt_type_isstrcompat(tb))
			return incompat(ctx, n);
		n->n_a = dt_sema_as_string(ctx, n->n_a);
		n->n_b = dt_sema_as_string(ctx, n->n_b);
		return n;
	}
	n->n_a = dt_sema_decay(ctx, n->n_a);	/* p == a: p == &a[0] */
	n->n_b = dt_sema_decay(ctx, n->n_b);
	ta = n->n_a->n_type;
	tb = n->n_b->n_type;
	/* pointers: to compatible types, or against NULL */
	if (!dt_sema_ptr_compat(ta, n->n_b) && !dt_sema_ptr_compat(tb, n->n_a))
		return incompat(ctx, n);
	if (!dt_type_isscalar(ta) || !dt_type_isscalar(tb))
		dt_error_node(ctx, n, "D_OP_SCALAR", "operator %s requires "
		    "operands of scalar type", dt_tok_name(n->n_op));
	if (dt_sema_is_const(n->n_a) && dt_sema_is_const(n->n_b)) {
		dt_type *ct = arith_result(ctx, ta->ty_kind == DT_TK_PTR ?
		    ctx->c_t_ulong : ta, tb->ty_kind == DT_TK_PTR ?
		    ctx->c_t_ulong : tb);
		return (dt_node_int(ctx, n, fold2(ctx, n, ct,
		    fit(ct, n->n_a->n_ival), fit(ct, n->n_b->n_ival)),
		    n->n_type));
	}
	return n;
}

static DT_NOINLINE dt_node *cook_logical(dt_ctx *ctx, dt_node *n)
{
	dt_type *ta = n->n_a->n_type, *tb = n->n_b->n_type;
	if (!dt_type_isscalar(ta) || !dt_type_isscalar(tb))
		dt_error_node(ctx, n, "D_OP_SCALAR", "operator %s requires "
		    "operands of scalar type", dt_tok_name(n->n_op));
	n->n_type = ctx->c_t_int;
	if (dt_sema_is_const(n->n_a) && dt_sema_is_const(n->n_b))
		return (dt_node_int(ctx, n, fold2(ctx, n, ctx->c_t_long,
		    n->n_a->n_ival, n->n_b->n_ival), n->n_type));
	/* a constant left operand decides or drops itself */
	if (dt_sema_is_const(n->n_a) && n->n_op != DT_T_LXOR) {
		bool av = n->n_a->n_ival != 0;
		if ((n->n_op == DT_T_LAND && !av) ||
		    (n->n_op == DT_T_LOR && av))
			return dt_node_int(ctx, n, av, n->n_type);
		dt_node *z = dt_node_int(ctx, n, 0, ctx->c_t_int);
		dt_node *ne = dt_alloc(ctx, sizeof(*ne));
		*ne = *n;
		ne->n_op = DT_T_NE;
		ne->n_a = n->n_b;
		ne->n_b = z;
		return ne;
	}
	return n;
}

static dt_node *cook_assign(dt_ctx *ctx, dt_node *n);

static DT_NOINLINE dt_node *cook_op2(dt_ctx *ctx, dt_node *n)
{
	switch (n->n_op) {
	case DT_T_ASGN: case DT_T_ADD_EQ: case DT_T_SUB_EQ: case DT_T_MUL_EQ:
	case DT_T_DIV_EQ: case DT_T_MOD_EQ: case DT_T_AND_EQ: case DT_T_OR_EQ:
	case DT_T_XOR_EQ: case DT_T_LSH_EQ: case DT_T_RSH_EQ:
		return cook_assign(ctx, n);
	default:
		break;
	}
	n->n_a = dt_sema_expr(ctx, n->n_a);
	n->n_b = dt_sema_expr(ctx, n->n_b);
	switch (n->n_op) {
	case DT_T_COMMA:
		if (n->n_a->n_type->ty_kind == DT_TK_AGGFN ||
		    n->n_b->n_type->ty_kind == DT_TK_AGGFN)
			dt_error_node(ctx, n, "D_OP_DYN", "operator , operands "
			    "cannot be of dynamic type");
		if (dt_fn_is_action(n->n_a) || dt_fn_is_action(n->n_b))
			dt_error_node(ctx, n, "D_OP_ACT", "operator , operands "
			    "cannot be actions");
		n->n_type = n->n_b->n_type;
		return n;
	case DT_T_LT: case DT_T_LE: case DT_T_GT: case DT_T_GE:
	case DT_T_EQ: case DT_T_NE:
		return cook_rel(ctx, n);
	case DT_T_LAND: case DT_T_LOR: case DT_T_LXOR:
		return cook_logical(ctx, n);
	default:
		return cook_arith(ctx, n);
	}
}

static DT_NOINLINE dt_node *cook_op3(dt_ctx *ctx, dt_node *n)
{
	n->n_a = dt_sema_expr(ctx, n->n_a);
	n->n_b = dt_sema_expr(ctx, n->n_b);
	n->n_c = dt_sema_expr(ctx, n->n_c);
	dt_type *ta = n->n_a->n_type, *tb = n->n_b->n_type,
	    *tc = n->n_c->n_type;
	if (!dt_type_isscalar(ta))
		dt_error_node(ctx, n, "D_OP_SCALAR", "operator ?: expression "
		    "must be of scalar type");
	if (tb->ty_kind == DT_TK_AGGFN || tc->ty_kind == DT_TK_AGGFN)
		dt_error_node(ctx, n, "D_OP_DYN", "operator ?: operands cannot "
		    "be of dynamic type");
	if ((dt_type_isstring(tb) || dt_sema_is_null(n->n_b)) &&
	    (dt_type_isstring(tc) || dt_sema_is_null(n->n_c)) &&
	    (dt_type_isstring(tb) || dt_type_isstring(tc))) {
		n->n_type = ctx->c_t_string;	/* c ? s : NULL: no string */
	} else if (is_arith(tb) && is_arith(tc)) {
		n->n_type = arith_result(ctx, tb, tc);
	} else if (dt_type_isscalar(tb) && dt_type_isscalar(tc) &&
	    (dt_sema_ptr_compat(tb, n->n_c) || dt_sema_ptr_compat(tc, n->n_b))) {
		n->n_type = tb->ty_kind == DT_TK_PTR ? tb : tc;
	} else if (tb == tc) {
		n->n_type = tb;
	} else {
		dt_error_node(ctx, n, "D_OP_INCOMPAT", "operator ?: operands "
		    "must have compatible types");
	}
	if (dt_fn_is_action(n->n_b) || dt_fn_is_action(n->n_c))
		dt_error_node(ctx, n, "D_OP_ACT", "action cannot be used in a "
		    "conditional context");
	if (n->n_type->ty_kind == DT_TK_VOID)	/* no value to choose */
		dt_error_node(ctx, n, "D_OP_INCOMPAT", "operator ?: operands "
		    "must have compatible types");
	if (dt_sema_is_const(n->n_a)) {	/* no code for the dead branch */
		dt_node *live = n->n_a->n_ival != 0 ? n->n_b : n->n_c;
		return (dt_type_isint(n->n_type) ? dt_sema_cast_to(ctx, live,
		    n->n_type) : live);
	}
	return n;
}

/* ---- assignment ---- */

/*
 * Record an associative array's key types; a global or thread-local array
 * is now complete enough to be listed in the program's variables (the
 * framework sizes its dynamic variables from vd_nkeys).
 */
void dt_sema_keys_define(dt_ctx *ctx, dt_ident *id, dt_type *const *keys,
                         uint32_t nkeys)
{
	for (uint32_t i = 0; i < nkeys; i++)
		id->id_keys[i] = keys[i];
	id->id_nkeys = nkeys;
	id->id_keys_known = true;
	if (id->id_scope != DIF_SCOPE_LOCAL)
		dt_vardesc_add(ctx, id);
}

/*
 * Check the keys of n (an index of the array id) against its key types;
 * the first use defines them.
 */
void dt_sema_array_keys(dt_ctx *ctx, dt_node *n, dt_ident *id)
{
	uint32_t nk = 0;
	dt_type *kt[DT_MAXKEYS];
	char kb[64];
	for (dt_node *k = n->n_args; k != NULL; k = k->n_next) {
		if (nk == DT_MAXKEYS)
			dt_error_node(ctx, k, "D_ARR_BADREF", "too many "
			    "associative array keys (limit %d)", DT_MAXKEYS);
		kt[nk++] = k->n_type;
		/* any type a scalar variable may have: structs and unions too */
		if (!dt_type_isscalar(k->n_type) &&
		    !dt_type_isstring(k->n_type) &&
		    k->n_type->ty_kind != DT_TK_STRUCT &&
		    k->n_type->ty_kind != DT_TK_UNION)
			dt_error_node(ctx, k, "D_KEY_TYPE", "%s expression "
			    "may not be used as associative array index: key "
			    "#%u", dt_sema_tname(k->n_type, kb, sizeof(kb)),
			    nk);
	}
	if (!id->id_keys_known) {
		dt_sema_keys_define(ctx, id, kt, nk);
		return;
	}
	if (nk != id->id_nkeys)
		dt_error_node(ctx, n, "D_PROTO_LEN", "%s[ ] prototype "
		    "mismatch: %u key%s passed, %u expected", id->id_name, nk,
		    nk == 1 ? "" : "s", id->id_nkeys);
	for (uint32_t i = 0; i < nk; i++) {
		if (dt_sema_assignable(id->id_keys[i], kt[i]))
			continue;
		char a[64], b[64];
		dt_error_node(ctx, n, "D_PROTO_ARG", "%s[ ] key #%u is "
		    "incompatible with prototype:\n\tprototype: %s\n\t"
		    "      key: %s", id->id_name, i + 1,
		    dt_sema_tname(id->id_keys[i], a, sizeof(a)),
		    dt_sema_tname(kt[i], b, sizeof(b)));
	}
}

static bool is_sou_or_array(const dt_type *t)
{
	return (t->ty_kind == DT_TK_STRUCT || t->ty_kind == DT_TK_UNION ||
	    t->ty_kind == DT_TK_ARRAY);
}

/* Does node b name an existing scalar D variable of struct/array type? */
static bool by_ref_var(dt_ctx *ctx, const dt_node *b)
{
	dt_idhash *h = b->n_kind == DT_N_SELF ? &ctx->c_tls :
	    b->n_kind == DT_N_THIS ? &ctx->c_locals :
	    b->n_kind == DT_N_VAR ? &ctx->c_globals : NULL;
	dt_ident *id = h == NULL ? NULL : dt_ident_lookup(h, b->n_str);
	return (id != NULL && id->id_kind == DT_IDK_VAR &&
	    is_sou_or_array(id->id_type));
}

/*
 * For p.m, a[i], p.a[i].m ...: the struct/array D variable at the root of
 * a chain of '.' members and array elements, or NULL.
 */
static dt_node *substore_root(dt_node *l)
{
	while ((l->n_kind == DT_N_MEMBER && l->n_op == DT_T_DOT) ||
	    (l->n_kind == DT_N_INDEX && l->n_ival == -2 &&
	    l->n_a->n_type->ty_kind == DT_TK_ARRAY))
		l = l->n_a;
	if (dt_sema_is_dvar(l) && l->n_ident->id_kind == DT_IDK_VAR &&
	    is_sou_or_array(l->n_type))
		return l;
	return NULL;
}

/* Resolve the target of an assignment, creating variables on first use. */
static DT_NOINLINE dt_node *cook_lvalue(dt_ctx *ctx, dt_node *l, dt_type *rt, dt_tokkind op)
{
	int scope = DIF_SCOPE_GLOBAL;
	const char *name = l->n_str;
	bool arr = false;
	dt_node *base = l;
	if (l->n_kind == DT_N_INDEX && by_ref_var(ctx, l->n_a))
		return dt_sema_expr(ctx, l);	/* arr[i] of an array variable */
	if (l->n_kind == DT_N_INDEX && (l->n_a->n_kind == DT_N_INDEX ||
	    l->n_a->n_kind == DT_N_MEMBER || dt_sema_index_is_mem(ctx, l)))
		return dt_sema_expr(ctx, l);	/* a[i][j], s.m[i], p[i]: memory */
	if (l->n_kind == DT_N_INDEX) {
		base = l->n_a;
		arr = true;
		name = base->n_str;
		if (base->n_kind == DT_N_THIS)
			dt_error_node(ctx, l, "D_ARR_LOCAL", "local variables "
			    "may not be used as associative arrays: %s",
			    name);
		if (base->n_kind != DT_N_VAR && base->n_kind != DT_N_SELF)
			dt_error_node(ctx, l, "D_OP_LVAL", "operator %s "
			    "requires modifiable lvalue as an operand",
			    dt_tok_name(op));
		for (dt_node **k = &l->n_args; *k != NULL; k = &(*k)->n_next) {
			dt_node *nx = (*k)->n_next;
			*k = dt_sema_expr(ctx, *k);
			(*k)->n_next = nx;
		}
	}
	if (base->n_kind == DT_N_SELF)
		scope = DIF_SCOPE_THREAD;
	else if (base->n_kind == DT_N_THIS)
		scope = DIF_SCOPE_LOCAL;
	else if (base->n_kind != DT_N_VAR)
		return dt_sema_expr(ctx, l);	/* not a D variable: checked later */
	dt_ident *id = dt_sema_dvar_get(ctx, scope, name, NULL, arr);
	if (id == NULL && scope == DIF_SCOPE_GLOBAL && !arr &&
	    dif_builtin_lookup(name, dt_strlen(name)) != NULL)
		dt_error_node(ctx, l, "D_OP_WRITE", "operator %s can only be "
		    "applied to a writable variable", dt_tok_name(op));
	const dt_func *fn = id == NULL && scope == DIF_SCOPE_GLOBAL ?
	    dt_func_lookup(ctx, name) : NULL;
	if (fn != NULL)
		dt_error_node(ctx, l, "D_IDENT_BADREF", "%s '%s' may not be "
		    "referenced as %s", fn->fn_class == DT_FN_AGG ?
		    "aggregating function" : fn->fn_subr >= 0 ? "function" :
		    "tracing function", name, arr ? "associative array" :
		    "scalar");
	if (id == NULL && op != DT_T_ASGN) {
		/*
		 * x += v, x++ on a variable never assigned: it springs into
		 * existence as an integer that was 0 ("bytes += arg2").
		 */
		if (!dt_type_isint(rt))
			return dt_sema_expr(ctx, l);	/* reports the name */
		rt = promote(ctx, rt);
	}
	if (id == NULL) {
		/* the new variable takes the value's type, if it can */
		if (rt->ty_kind == DT_TK_VOID || rt->ty_kind == DT_TK_AGGFN) {
			char b[64];
			dt_sema_tname(rt, b, sizeof(b));
			dt_error_node(ctx, l, "D_OP_INCOMPAT", "operands have "
			    "incompatible types: \"%s\" = \"%s\"", b, b);
		}
		id = dt_sema_dvar_get(ctx, scope, name, rt, arr);
	}
	if (id->id_kind != DT_IDK_VAR && id->id_kind != DT_IDK_ARRAY)
		dt_error_node(ctx, l, "D_OP_LVAL", "operator %s requires "
		    "modifiable lvalue as an operand", dt_tok_name(op));
	if (!arr && id->id_kind == DT_IDK_ARRAY)
		dt_sema_unindexed(ctx, l, scope, id);
	if (arr != (id->id_kind == DT_IDK_ARRAY))
		dt_error_node(ctx, l, "D_IDENT_BADREF", "%s is a scalar variable "
		    "and may not be indexed", name);
	if (arr)
		dt_sema_array_keys(ctx, l, id);
	base->n_ident = id;
	l->n_ident = id;
	l->n_type = id->id_type;
	base->n_type = id->id_type;
	l->n_flags |= DT_NF_LVAL | DT_NF_COOKED;
	return l;
}

static DT_NOINLINE dt_node *cook_assign(dt_ctx *ctx, dt_node *n)
{
	if (dt_bag_is_ref(ctx, n->n_a))
		return dt_bag_cook_assign(ctx, n);
	if (n->n_a->n_kind == DT_N_AGG)
		dt_error_node(ctx, n, "D_AGG_FUNC", "@%s must be assigned the "
		    "result of an aggregating function", n->n_a->n_str);
	n->n_b = dt_sema_expr(ctx, n->n_b);
	if (!by_ref_var(ctx, n->n_a))
		n->n_b = dt_sema_decay(ctx, n->n_b);	/* p = a: p = &a[0] */
	n->n_a = cook_lvalue(ctx, n->n_a, n->n_b->n_type, n->n_op);
	dt_node *root = dt_sema_is_dvar(n->n_a) ? NULL :
	    substore_root(n->n_a);
	if (root != NULL) {
		n->n_flags |= DT_NF_SUBSTORE;
		n->n_c = root;
	} else {
		need_lval(ctx, n, n->n_a, n->n_op);
	}
	dt_type *lt = n->n_a->n_type, *rt = n->n_b->n_type;
	if (n->n_op != DT_T_ASGN) {
		/* check as the binary operation it abbreviates */
		dt_node tmp = *n;
		tmp.n_op = dt_tok_compound_op(n->n_op);
		tmp.n_flags = 0;
		(void)cook_arith(ctx, &tmp);
		if (!dt_type_isscalar(lt))
			dt_error_node(ctx, n, "D_OP_SCALAR", "operator %s "
			    "requires operands of scalar type",
			    dt_tok_name(n->n_op));
	} else if (dt_type_isstring(lt) && dt_sema_is_null(n->n_b)) {
		/* s = 0, self->s = NULL: no string (a dynamic one is freed) */
	} else if ((!dt_sema_assignable(lt, rt) && !(lt->ty_kind == rt->ty_kind &&
	    (lt->ty_kind == DT_TK_STACK || lt->ty_kind == DT_TK_SYMADDR))) ||
	    !dt_sema_ptr_compat(lt, n->n_b)) {
		char a[64], b[64];
		dt_error_node(ctx, n, "D_OP_INCOMPAT", "operands have "
		    "incompatible types: \"%s\" = \"%s\"",
		    dt_sema_tname(lt, a, sizeof(a)), dt_sema_tname(rt, b, sizeof(b)));
	}
	if (n->n_op == DT_T_ASGN && dt_type_isint(lt) && lt != rt)
		n->n_b = dt_sema_cast_to(ctx, n->n_b, lt);
	n->n_type = lt;
	if (dt_sema_is_dvar(n->n_a))
		dt_sema_alloca_assign(ctx, n);
	return n;
}

/* ---- the dispatcher ---- */

/*
 * @a as a value: as in DTrace, of a "dynamic" type that no operator, action
 * or variable accepts, so the context reports it (D_TRACE_DYN, D_OP_DYN,
 * D_OP_INCOMPAT...).
 */
static DT_NOINLINE dt_node *cook_agg_ref(dt_ctx *ctx, dt_node *n)
{
	char key[80];
	dt_snprintf(key, sizeof(key), "@%s", n->n_str);
	if (n->n_a == NULL && dt_ident_lookup(&ctx->c_globals, key) == NULL)
		dt_error_node(ctx, n, "D_IDENT_UNDEF", "failed to resolve @%s: "
		    "Unknown variable name", n->n_str);
	n->n_type = ctx->c_t_aggfn;
	return n;
}

/*
 * A binary operator other than assignment: left-associative, so a long
 * chain (1 + 1 + ... + 1, a || b || ... || z) is a tree as deep as it is
 * long, down its left operands.
 */
bool dt_op2_chains(const dt_node *n)
{
	if (n->n_kind != DT_N_OP2)
		return false;
	switch (n->n_op) {
	case DT_T_ASGN: case DT_T_ADD_EQ: case DT_T_SUB_EQ: case DT_T_MUL_EQ:
	case DT_T_DIV_EQ: case DT_T_MOD_EQ: case DT_T_AND_EQ: case DT_T_OR_EQ:
	case DT_T_XOR_EQ: case DT_T_LSH_EQ: case DT_T_RSH_EQ:
		return false;
	default:
		return true;
	}
}

static dt_node *cook(dt_ctx *ctx, dt_node *n);

/*
 * Cook the left operands down n's chain bottom-up, one at a time, so that
 * the recursion (and its nesting limit) is that of one link whatever the
 * chain's length; cooking n then finds its left operand done.
 */
static DT_NOINLINE void cook_chain(dt_ctx *ctx, dt_node *n)
{
	uint32_t k = 0;
	for (dt_node *m = n->n_a; dt_op2_chains(m) &&
	    !(m->n_flags & DT_NF_COOKED); m = m->n_a)
		k++;
	if (k < 2)
		return;
	dt_node **spine = dt_alloc(ctx, (k + 1) * sizeof(*spine));
	spine[0] = n;
	for (uint32_t i = 1; i <= k; i++)
		spine[i] = spine[i - 1]->n_a;
	for (uint32_t i = k; i >= 1; i--)
		spine[i - 1]->n_a = cook(ctx, spine[i]);
}

static dt_node *cook(dt_ctx *ctx, dt_node *n)
{
	if (n->n_flags & DT_NF_COOKED)
		return n;
	if (dt_op2_chains(n))
		cook_chain(ctx, n);
	if (++ctx->c_depth > DT_MAXDEPTH)
		dt_error_node(ctx, n, "D_SYNTAX", "expression nesting is too "
		    "deep (the limit is %d levels; each operand, operator and "
		    "inline use is one)", DT_MAXDEPTH);
	dt_node *r;
	switch (n->n_kind) {
	case DT_N_INT: case DT_N_STR: r = n; break;
	case DT_N_VAR: r = dt_cook_var(ctx, n); break;
	case DT_N_SELF: case DT_N_THIS: r = dt_cook_selfthis(ctx, n); break;
	case DT_N_SYM: r = dt_cook_sym(ctx, n); break;
	case DT_N_OP1: r = cook_op1(ctx, n); break;
	case DT_N_OP2: r = cook_op2(ctx, n); break;
	case DT_N_OP3: r = cook_op3(ctx, n); break;
	case DT_N_CALL: r = dt_cook_call(ctx, n); break;
	case DT_N_INDEX: r = dt_cook_index(ctx, n); break;
	case DT_N_AGG: r = cook_agg_ref(ctx, n); break;
	case DT_N_MEMBER: r = dt_bag_is_ref(ctx, n) ? dt_bag_cook_read(ctx, n) :
	    dt_cook_member(ctx, n); break;
	case DT_N_CAST: r = dt_cook_cast(ctx, n); break;
	case DT_N_SIZEOF: r = dt_cook_sizeof(ctx, n); break;
	case DT_N_OFFSETOF: r = dt_cook_offsetof(ctx, n); break;
	case DT_N_STRINGOF: r = dt_cook_stringof(ctx, n); break;
	case DT_N_XLATE: r = dt_cook_xlate(ctx, n); break;
	default:
		dt_error_node(ctx, n, "D_SYNTAX", "unexpected expression");
	}
	ctx->c_depth--;
	r->n_flags |= DT_NF_COOKED;
	return r;
}

dt_node *dt_sema_expr(dt_ctx *ctx, dt_node *n)
{
	return cook(ctx, n);
}

void dt_sema_init(dt_ctx *ctx)
{
	dt_types_init(ctx);
	dt_subr_lib_init(ctx);
	ctx->c_nextvar = DIF_VAR_USER_BASE;
	ctx->c_nexttls = DIF_VAR_USER_BASE;
	ctx->c_nextlocal = DIF_VAR_USER_BASE;
}
