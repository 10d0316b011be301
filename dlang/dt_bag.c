/*
 * dt_bag.c - the bag-> scope: causal baggage in D (docs/causal.md).
 *
 *   bag->client = execname;          pack into the current thread's baggage
 *   bag->bytes += arg2;              a sum kept in the baggage (one entry)
 *   @[bag->client] = sum(arg2);      read: every value packed along the path
 *   first(bag->client), last(...)    Pivot Tracing's FIRST and MOSTRECENT
 *
 * `bag` is not a keyword: `bag->name` means the baggage unless the program
 * declares a variable called bag.  The semantic pass turns each use into a
 * call of the baggage subroutines (dif/dif_subr.def: bag_pack, bag_get,
 * bag_getstr) with the key as a string constant, so code generation, the
 * validator and the interpreter need nothing new.  Types: a key's type is
 * that of its first assignment in the program (integer or string, nothing
 * else; a later assignment of the other kind is D_BAG_TYPE); a key the
 * program reads but never assigns (packed by another program, on another
 * machine) reads as a string, an integer value giving its decimal text.
 *
 * Errors: D_BAG_KEY (name longer than BAGGAGE_KEY_MAX, 32), D_BAG_TYPE
 * (a value neither integer nor string, or of two kinds), D_BAG_OP (an
 * operator other than = and +=, or += on a string), D_BAG_SELECT (first()
 * or last() of something that is not one bag-> member).
 *
 * Tests: tests/d/causal (and its err.D_BAG_*.d)
 */
#include "dlang/dt.h"

#define DT_BAG_KEY_MAX 32            /* kernel/baggage.h BAGGAGE_KEY_MAX */

bool dt_bag_is_ref(dt_ctx *ctx, const dt_node *n)
{
	return (n != NULL && n->n_kind == DT_N_MEMBER && n->n_op == DT_T_ARROW &&
	    n->n_a != NULL && n->n_a->n_kind == DT_N_VAR &&
	    dt_streq(n->n_a->n_str, "bag") &&
	    dt_ident_lookup(&ctx->c_globals, "bag") == NULL);
}

static void bag_key_check(dt_ctx *ctx, const dt_node *n)
{
	if (dt_strlen(n->n_str) > DT_BAG_KEY_MAX)
		dt_error_node(ctx, n, "D_BAG_KEY", "bag->%s: a baggage key is "
		    "at most %d characters", n->n_str, DT_BAG_KEY_MAX);
}

/* bag_node: a new node of kind k at where's place. */
static dt_node *bag_node(dt_ctx *ctx, const dt_node *where, dt_nodekind k)
{
	dt_node *n = dt_alloc(ctx, sizeof(*n));
	n->n_kind = k;
	n->n_line = where->n_line;
	n->n_col = where->n_col;
	n->n_reg = -1;
	return n;
}

static dt_node *bag_str(dt_ctx *ctx, const dt_node *where, const char *s)
{
	dt_node *k = bag_node(ctx, where, DT_N_STR);
	k->n_type = ctx->c_t_string;
	k->n_str = s;
	k->n_slen = dt_strlen(s);
	return k;
}

/* bag_call: a call of the internal function fn(key, arg, [arg2]), cooked. */
static dt_node *bag_call(dt_ctx *ctx, const dt_node *where, const char *fn, const char *key,
                         dt_node *arg, dt_node *arg2)
{
	dt_node *c = bag_node(ctx, where, DT_N_CALL);
	c->n_str = fn;
	c->n_args = bag_str(ctx, where, key);
	c->n_args->n_next = arg;
	arg->n_next = arg2;
	c->n_ival = arg2 != NULL ? 3 : 2;
	return dt_sema_expr(ctx, c);
}

/* bag->key read with selector sel (DIF_BAG_SEL_*). */
static dt_node *bag_read(dt_ctx *ctx, dt_node *n, int sel)
{
	dt_ident *id = dt_ident_lookup(&ctx->c_bag, n->n_str);
	bool isint = id != NULL && id->id_type != NULL &&
	    !dt_type_isstring(id->id_type);

	bag_key_check(ctx, n);
	return (bag_call(ctx, n, isint ? "bag->get" : "bag->getstr", n->n_str,
	    dt_node_int(ctx, n, sel, ctx->c_t_int), NULL));
}

dt_node *dt_bag_cook_read(dt_ctx *ctx, dt_node *n)
{
	return bag_read(ctx, n, DIF_BAG_SEL_ALL);
}

/* first(bag->k) and last(bag->k); NULL when n is not such a call. */
dt_node *dt_bag_cook_select(dt_ctx *ctx, dt_node *n)
{
	bool first = dt_streq(n->n_str, "first");

	if (!first && !dt_streq(n->n_str, "last"))
		return NULL;
	if (n->n_args == NULL || n->n_args->n_next != NULL ||
	    !dt_bag_is_ref(ctx, n->n_args))
		dt_error_node(ctx, n, "D_BAG_SELECT", "%s( ) takes one bag-> "
		    "member", n->n_str);
	return (bag_read(ctx, n->n_args, first ? DIF_BAG_SEL_FIRST :
	    DIF_BAG_SEL_LAST));
}

/* The key's type, from its first assignment; later ones must agree. */
static bool bag_key_type(dt_ctx *ctx, const dt_node *n, const dt_type *t)
{
	bool isstr = dt_type_isstring(t);
	dt_ident *id;

	if (!isstr && !dt_type_isint(t))
		dt_error_node(ctx, n, "D_BAG_TYPE", "bag->%s: baggage holds "
		    "integers and strings only", n->n_a->n_str);
	id = dt_ident_lookup(&ctx->c_bag, n->n_a->n_str);
	if (id == NULL) {
		id = dt_ident_insert(ctx, &ctx->c_bag, n->n_a->n_str,
		    DT_IDK_VAR);
		id->id_type = isstr ? ctx->c_t_string : ctx->c_t_long;
	} else if (dt_type_isstring(id->id_type) != isstr) {
		dt_error_node(ctx, n, "D_BAG_TYPE", "bag->%s was packed as "
		    "%s before", n->n_a->n_str, isstr ? "an integer" :
		    "a string");
	}
	return isstr;
}

/* An operator that bag-> does not take (++, --, &): D_BAG_OP. */
_Noreturn void dt_bag_op_error(dt_ctx *ctx, const dt_node *n)
{
	dt_error_node(ctx, n, "D_BAG_OP", "operator %s may not be applied "
	    "to bag->%s: use = or +=", dt_tok_name(n->n_op), n->n_a->n_str);
}

/* bag->k = e and bag->k += e. */
dt_node *dt_bag_cook_assign(dt_ctx *ctx, dt_node *n)
{
	dt_node *v;
	bool isstr;

	bag_key_check(ctx, n->n_a);
	if (n->n_op != DT_T_ASGN && n->n_op != DT_T_ADD_EQ)
		dt_bag_op_error(ctx, n);
	v = dt_sema_expr(ctx, n->n_b);
	isstr = bag_key_type(ctx, n, v->n_type);
	if (isstr && n->n_op == DT_T_ADD_EQ)
		dt_error_node(ctx, n, "D_BAG_OP", "operator += may not be "
		    "applied to string bag->%s", n->n_a->n_str);
	return (bag_call(ctx, n, isstr ? "bag->packs" : "bag->packi",
	    n->n_a->n_str, v, dt_node_int(ctx, n, isstr ? 1 :
	    n->n_op == DT_T_ADD_EQ ? 2 : 0, ctx->c_t_int)));
}
