/*
 * dlang/dt_sema_ptr.c: pointers in the semantic pass.
 *
 * What D says about pointers that is not an operator rule of dt_sema.c:
 *
 *   - p[i] on a pointer (or an array) is *(p + i): a load from memory,
 *     never an associative array, whether p is a global, self-> or this->
 *     variable or any pointer expression (dt_sema_index_is_mem);
 *   - *p, p->m, p[i] (and members and elements below them) are lvalues in
 *     memory: they may be assigned and incremented.  The compiler accepts
 *     every such store; DIF lets a store reach only scratch memory that
 *     alloca() (or the environment) handed out in the current clause, and
 *     anything else faults at run time with DTrace's "invalid address"
 *     (dif/dif_mem.c), so kernel memory stays read-only;
 *   - a `char *` or `char [n]` is string-compatible: where a string is
 *     wanted (a subroutine's string argument, printf's %s, a comparison
 *     with a string) it is read as the NUL-terminated string it points to
 *     (dt_sema_as_string);
 *   - a variable holds either pointers into alloca()'d scratch or other
 *     values, never both (DTrace's D_ALLOCA_INCOMPAT): an alloca()'d
 *     (or copyin()'d) pointer stays one through casts to pointers,
 *     pointer arithmetic and variables, and each variable remembers
 *     which kinds it has been given (dt_sema_alloca_assign).  NULL (the
 *     constant 0) is neither and changes nothing.
 *
 * What it does not do: track alloca()'d pointers stored in associative
 * arrays or in memory, or check sizes (a store past an allocation faults
 * at run time instead).
 *
 * Context: compile time only; no state beyond the identifiers' id_alloca.
 *
 * Tests: tests/d/pointers; tests/d/err.D_DEREF_*.d, err.D_ALLOCA_*.d
 */
#include "dlang/dt.h"

/* A char * or char [n]: D reads it as a string where a string is wanted. */
bool dt_type_isstrcompat(const dt_type *t)
{
	if (t->ty_kind == DT_TK_STRING)
		return true;
	if (t->ty_kind != DT_TK_PTR && t->ty_kind != DT_TK_ARRAY)
		return false;
	const dt_type *c = t->ty_base;
	return (c != NULL && c->ty_kind == DT_TK_INT && c->ty_size == 1 &&
	    c->ty_signed);
}

/* Same object type, as C's compatibility: typedefs are their targets. */
static bool same_type(const dt_type *a, const dt_type *b)
{
	if (a == b)
		return true;
	if (a->ty_kind != b->ty_kind)
		return false;
	switch (a->ty_kind) {
	case DT_TK_INT:
		return a->ty_size == b->ty_size && a->ty_signed == b->ty_signed;
	case DT_TK_PTR:
		return same_type(a->ty_base, b->ty_base);
	case DT_TK_ARRAY:
		return (a->ty_nelem == b->ty_nelem &&
		    same_type(a->ty_base, b->ty_base));
	case DT_TK_VOID: case DT_TK_STRING:
		return true;
	default:			/* struct, union, enum: one definition */
		return (a->ty_name != NULL && b->ty_name != NULL &&
		    dt_streq(a->ty_name, b->ty_name) && a->ty_size == b->ty_size);
	}
}

/*
 * May the value r be used where a value of type t goes (assignment,
 * comparison, subtraction), as far as pointers go?  As in DTrace, two
 * pointers must point to the same type or one of them to void; a pointer
 * and an integer mix only when the integer is the constant 0 (NULL).
 * Everything not involving a pointer is left to the other checks.
 */
bool dt_sema_ptr_compat(const dt_type *t, const dt_node *r)
{
	const dt_type *u = r->n_type;
	if (t->ty_kind != DT_TK_PTR && u->ty_kind != DT_TK_PTR)
		return true;
	if (t->ty_kind == DT_TK_PTR && u->ty_kind == DT_TK_PTR)
		return (t->ty_base->ty_kind == DT_TK_VOID ||
		    u->ty_base->ty_kind == DT_TK_VOID ||
		    same_type(t->ty_base, u->ty_base));
	const dt_type *other = t->ty_kind == DT_TK_PTR ? u : t;
	if (!dt_type_isint(other))
		return true;		/* string and char *: strcompat rules */
	return (t->ty_kind == DT_TK_PTR && dt_sema_is_const(r) &&
	    r->n_ival == 0);
}

/* A scalar D variable of pointer or array type (p[i] indexes memory). */
bool dt_sema_is_ptrvar(const dt_ident *id)
{
	return (id != NULL && id->id_kind == DT_IDK_VAR && id->id_type != NULL &&
	    (id->id_type->ty_kind == DT_TK_PTR ||
	    id->id_type->ty_kind == DT_TK_ARRAY));
}

/*
 * Is the assignment target l = b[keys] an access to memory rather than to
 * an associative array?  Yes when b is not a plain variable (p->buf[i],
 * (p + 1)[0], a[k][i]) or is a variable that already exists as a pointer
 * or array; a new name, or an associative array, is an array element.
 */
bool dt_sema_index_is_mem(dt_ctx *ctx, const dt_node *l)
{
	const dt_node *b = l->n_a;
	dt_idhash *h;
	switch (b->n_kind) {
	case DT_N_VAR: h = &ctx->c_globals; break;
	case DT_N_SELF: h = &ctx->c_tls; break;
	case DT_N_THIS: h = &ctx->c_locals; break;
	default: return (true);
	}
	return dt_sema_is_ptrvar(dt_ident_lookup(h, b->n_str));
}

/*
 * A cooked lvalue that lives in memory: *p, p->m, p[i] of a pointer, or a
 * member or element of one of those.
 */
bool dt_sema_is_memlval(const dt_node *n)
{
	for (;;) {
		switch (n->n_kind) {
		case DT_N_OP1:
			return n->n_op == DT_T_STAR;
		case DT_N_MEMBER:
			if (n->n_op == DT_T_ARROW)
				return true;
			n = n->n_a;
			break;
		case DT_N_INDEX:
			if (n->n_ival != -2)
				return false;
			if (n->n_a->n_type->ty_kind == DT_TK_PTR)
				return true;
			n = n->n_a;
			break;
		default:
			return false;
		}
	}
}

/*
 * Is the memory lvalue or pointer expression e writable?  As in DTrace,
 * writability comes from D variables (not built-ins such as arg0) and
 * follows casts, pointer arithmetic, members, elements and dereferences:
 * p->m = v compiles for a pointer variable p (a store outside scratch
 * then faults at run time), ((struct s *)arg0)->m = v does not.
 */
static bool writable(const dt_node *e)
{
	switch (e->n_kind) {
	case DT_N_VAR: case DT_N_SELF: case DT_N_THIS:
		return (e->n_ident != NULL && (e->n_ident->id_kind ==
		    DT_IDK_VAR || e->n_ident->id_kind == DT_IDK_ARRAY));
	case DT_N_INDEX:
		return (e->n_ival == -2 ? writable(e->n_a) :
		    e->n_ident != NULL && e->n_ident->id_kind == DT_IDK_ARRAY);
	case DT_N_CAST: case DT_N_MEMBER:
		return writable(e->n_a);
	case DT_N_OP1:		/* *p, p++, --p */
		return ((e->n_op == DT_T_STAR || e->n_op == DT_T_INC ||
		    e->n_op == DT_T_DEC) && writable(e->n_a));
	case DT_N_OP3:		/* ?: takes the first branch's */
		return writable(e->n_b);
	case DT_N_OP2:
		if (e->n_op == DT_T_PLUS || e->n_op == DT_T_MINUS)
			return (e->n_a->n_type->ty_kind == DT_TK_PTR ?
			    writable(e->n_a) : writable(e->n_b));
		return e->n_op == DT_T_COMMA ? writable(e->n_b) : false;
	default:
		return false;
	}
}

/* A memory lvalue that may not be stored to: DTrace's D_OP_WRITE. */
void dt_sema_memstore_check(dt_ctx *ctx, dt_node *n, dt_node *l, dt_tokkind op)
{
	if (!writable(l))
		dt_error_node(ctx, n, "D_OP_WRITE", "operator %s can only be "
		    "applied to a writable variable", dt_tok_name(op));
}

/*
 * An array used as a value is a pointer to its first element (p = a is
 * p = &a[0]); anything else is returned as it is.
 */
dt_node *dt_sema_decay(dt_ctx *ctx, dt_node *n)
{
	if (n->n_type->ty_kind != DT_TK_ARRAY)
		return n;
	dt_node *d = dt_alloc(ctx, sizeof(*d));
	d->n_kind = DT_N_OP1;
	d->n_op = DT_T_BAND;
	d->n_line = n->n_line;
	d->n_col = n->n_col;
	d->n_type = dt_type_ptr(ctx, n->n_type->ty_base);
	d->n_a = n;
	d->n_next = n->n_next;
	d->n_reg = -1;
	d->n_flags = DT_NF_COOKED;
	return d;
}

/* n (cooked), read as a string if it is a char * or char [n]. */
dt_node *dt_sema_as_string(dt_ctx *ctx, dt_node *n)
{
	if (!dt_type_isstrcompat(n->n_type) || dt_type_isstring(n->n_type))
		return n;
	dt_node *s = dt_alloc(ctx, sizeof(*s));
	s->n_kind = DT_N_STRINGOF;
	s->n_line = n->n_line;
	s->n_col = n->n_col;
	s->n_type = ctx->c_t_string;
	s->n_a = n;
	s->n_next = n->n_next;
	s->n_reg = -1;
	s->n_flags = DT_NF_COOKED;
	return s;
}

/*
 * A string's characters: s as a const char * to its first byte, for s[i]
 * and *s (DTrace's string type is a char array, so both give a char).
 */
dt_node *dt_sema_str_chars(dt_ctx *ctx, dt_node *n)
{
	return dt_sema_cast_to(ctx, n, dt_type_ptr(ctx, ctx->c_t_char));
}

/* The same in place: n (cooked, in a list) becomes stringof(n). */
void dt_sema_string_inplace(dt_ctx *ctx, dt_node *n)
{
	if (!dt_type_isstrcompat(n->n_type) || dt_type_isstring(n->n_type))
		return;
	dt_node *c = dt_alloc(ctx, sizeof(*c));
	*c = *n;
	c->n_next = NULL;
	n->n_kind = DT_N_STRINGOF;
	n->n_type = ctx->c_t_string;
	n->n_a = c;
	n->n_b = n->n_c = n->n_args = NULL;
	n->n_flags = DT_NF_COOKED;
	n->n_ident = NULL;
}

/* ---- alloca()'d pointers ---- */

#define DT_ALLOCA_YES	0x1	/* id_alloca: given an alloca()'d pointer */
#define DT_ALLOCA_NO	0x2	/* id_alloca: given something else */

static bool is_null(const dt_node *n)
{
	return dt_sema_is_const(n) && n->n_ival == 0;
}

/*
 * Which kinds of value may e (cooked) be: DT_ALLOCA_YES (a pointer into
 * alloca()'d scratch), DT_ALLOCA_NO, both (?: of one and the other), or
 * neither (NULL).  Casts, pointer arithmetic, assignments and variables
 * carry the kind of what they were computed from.
 */
static unsigned alloca_kinds(const dt_node *e);

/* &l: the kind of the pointer the memory lvalue l is reached through. */
static unsigned alloca_addr_kinds(const dt_node *l)
{
	for (;;) {
		switch (l->n_kind) {
		case DT_N_OP1:
			return (l->n_op == DT_T_STAR ? alloca_kinds(l->n_a) :
			    DT_ALLOCA_NO);
		case DT_N_MEMBER:
			if (l->n_op == DT_T_ARROW)
				return alloca_kinds(l->n_a);
			l = l->n_a;
			break;
		case DT_N_INDEX:
			if (l->n_ival != -2)
				return DT_ALLOCA_NO;
			if (l->n_a->n_type->ty_kind == DT_TK_PTR)
				return alloca_kinds(l->n_a);
			l = l->n_a;
			break;
		default:
			return DT_ALLOCA_NO;
		}
	}
}

static unsigned alloca_kinds(const dt_node *e)
{
	if (is_null(e))
		return 0;
	switch (e->n_kind) {
	case DT_N_OP3:
		return alloca_kinds(e->n_b) | alloca_kinds(e->n_c);
	case DT_N_CAST:		/* (char *)alloca(n); (uintptr_t)p is not */
		return (e->n_type->ty_kind == DT_TK_PTR ? alloca_kinds(e->n_a) :
		    DT_ALLOCA_NO);
	case DT_N_CALL:
		return (dt_streq(e->n_str, "alloca") || dt_streq(e->n_str,
		    "copyin") ? DT_ALLOCA_YES : DT_ALLOCA_NO);
	case DT_N_VAR: case DT_N_SELF: case DT_N_THIS:
		return (e->n_ident != NULL && e->n_ident->id_kind ==
		    DT_IDK_VAR && (e->n_ident->id_alloca & DT_ALLOCA_YES) ?
		    DT_ALLOCA_YES : DT_ALLOCA_NO);
	case DT_N_OP1:		/* &b->data[i], and an array's decay */
		return (e->n_op == DT_T_BAND ? alloca_addr_kinds(e->n_a) :
		    DT_ALLOCA_NO);
	case DT_N_OP2:
		if (e->n_op == DT_T_COMMA || e->n_op == DT_T_ASGN)
			return alloca_kinds(e->n_b);
		if ((e->n_op == DT_T_PLUS || e->n_op == DT_T_MINUS) &&
		    e->n_type->ty_kind == DT_TK_PTR)
			return (((alloca_kinds(e->n_a) | alloca_kinds(e->n_b)) &
			    DT_ALLOCA_YES) ? DT_ALLOCA_YES : DT_ALLOCA_NO);
		return DT_ALLOCA_NO;
	default:
		return DT_ALLOCA_NO;
	}
}

/*
 * The assignment asg (cooked) stores its right-hand side into a scalar D
 * variable: record the kind of value the variable holds, and refuse a
 * variable used for both (even in different clauses, in either order).
 */
void dt_sema_alloca_assign(dt_ctx *ctx, dt_node *asg)
{
	dt_node *l = asg->n_a, *r = asg->n_b;
	dt_ident *id = l->n_ident;
	if (id == NULL || id->id_kind != DT_IDK_VAR || asg->n_op != DT_T_ASGN ||
	    dt_type_isstring(id->id_type))
		return;		/* a string variable holds a copy, not a pointer */
	unsigned k = alloca_kinds(r);
	if ((k & DT_ALLOCA_YES) && (k | id->id_alloca) != DT_ALLOCA_YES)
		dt_error_node(ctx, asg, "D_ALLOCA_INCOMPAT", "%s%s%s: a "
		    "variable may hold either alloca( ) pointers or other "
		    "values, not both", l->n_kind == DT_N_SELF ? "self->" :
		    "", l->n_kind == DT_N_THIS ? "this->" : "", id->id_name);
	if ((k & DT_ALLOCA_NO) && (id->id_alloca & DT_ALLOCA_YES))
		dt_error_node(ctx, asg, "D_ALLOCA_INCOMPAT", "%s%s%s: a "
		    "variable may hold either alloca( ) pointers or other "
		    "values, not both", l->n_kind == DT_N_SELF ? "self->" :
		    "", l->n_kind == DT_N_THIS ? "this->" : "", id->id_name);
	id->id_alloca |= (uint8_t)k;
}
