/*
 * dlang/dt_sema_ref.c: the semantic pass for names and references.
 *
 * The half of expression cooking (see dt_sema.c) that resolves what an
 * expression refers to: identifiers (built-in variables, D variables of
 * each scope created on first use, inlines expanded at each use,
 * enumerators, `kernel symbols), associative array and pointer indexing,
 * struct/union members, translated members (xlate), casts, sizeof,
 * offsetof and stringof.  Operators, assignment and constant folding are
 * in dt_sema.c, whose dispatcher calls the dt_cook_* functions here.
 *
 * Tests: tests/d/err.D_IDENT_*.d, err.D_VAR_*.d; tests/dlang/member.S;
 *        tests/d/variables; tests/d/translators (whole translations)
 */
#include "dlang/dt.h"

/* ---- identifiers ---- */

/* Types of the built-in variables (no CTF: plain integers and strings). */
static dt_type *builtin_type(dt_ctx *ctx, const dif_builtin_t *bi)
{
	if (bi->bi_kind == DIF_TYPE_STRING)
		return ctx->c_t_string;
	switch (bi->bi_id) {
	case DIF_VAR_TIMESTAMP: case DIF_VAR_VTIMESTAMP:
	case DIF_VAR_WALLTIMESTAMP:
		return dt_type_lookup(ctx, "uint64_t");
	case DIF_VAR_CPU:
		return dt_type_lookup(ctx, "processorid_t");
	case DIF_VAR_PID: case DIF_VAR_PPID:
		return dt_type_lookup(ctx, "pid_t");
	case DIF_VAR_TID:
		return dt_type_lookup(ctx, "id_t");
	case DIF_VAR_UID:
		return dt_type_lookup(ctx, "uid_t");
	case DIF_VAR_GID:
		return dt_type_lookup(ctx, "gid_t");
	case DIF_VAR_ERRNO:
		return ctx->c_t_int;
	case DIF_VAR_STACKDEPTH: case DIF_VAR_USTACKDEPTH:
	case DIF_VAR_ID: case DIF_VAR_EPID: case DIF_VAR_IPL:
		return dt_type_lookup(ctx, "uint32_t");
	case DIF_VAR_CURTHREAD: case DIF_VAR_CURCPU: case DIF_VAR_CALLER:
	case DIF_VAR_UCALLER:
		return dt_type_lookup(ctx, "uintptr_t");
	default:
		return dt_type_lookup(ctx, "int64_t");
	}
}

/* Make a copy of an uncooked tree (inline bodies are cooked per use). */
static dt_node *clone(dt_ctx *ctx, const dt_node *n, const dt_node *where)
{
	if (n == NULL)
		return NULL;
	dt_node *c = dt_alloc(ctx, sizeof(*c));
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
	return c;
}

dt_node *dt_sema_cast_to(dt_ctx *ctx, dt_node *n, dt_type *t)
{
	if (n->n_type == t)
		return n;
	if (dt_sema_is_const(n) && dt_type_isscalar(t))	/* (void *)0 too */
		return dt_node_int(ctx, n, n->n_ival, t);
	dt_node *c = dt_alloc(ctx, sizeof(*c));
	c->n_kind = DT_N_CAST;
	c->n_line = n->n_line;
	c->n_col = n->n_col;
	c->n_ctype = t;
	c->n_type = t;
	c->n_a = n;
	c->n_reg = -1;
	c->n_flags = DT_NF_COOKED;
	return c;
}

/* Body of an inline, cooked at the point of use. */
static dt_node *inline_use(dt_ctx *ctx, dt_ident *id, dt_node *where)
{
	if (++ctx->c_depth > DT_MAXDEPTH)
		dt_error_node(ctx, where, "D_IDENT_BADREF", "inline %s is "
		    "too deeply nested (the limit is %d levels; each inline use "
		    "and each operand and operator is one)", id->id_name, DT_MAXDEPTH);
	id->id_busy = true;
	dt_node *b = dt_sema_expr(ctx, clone(ctx, id->id_expr, where));
	id->id_busy = false;
	ctx->c_depth--;
	if (!dt_sema_assignable(id->id_type, b->n_type)) {
		char a[64], c[64];
		dt_error_node(ctx, where, "D_OP_INCOMPAT", "inline %s "
		    "definition uses incompatible types: \"%s\" = \"%s\"",
		    id->id_name, dt_sema_tname(id->id_type, a, sizeof(a)),
		    dt_sema_tname(b->n_type, c, sizeof(c)));
	}
	if (dt_type_isstring(id->id_type))
		return b;
	return dt_sema_cast_to(ctx, b, id->id_type);
}

/*
 * An inline whose body is a translation, xlate<T *>(e) (the library's
 * curcpu), stands for that translation where a member is taken from it:
 * the inline's ident, or NULL if n is not such a use.
 */
static dt_ident *xlate_inline(dt_ctx *ctx, const dt_node *n)
{
	if (n->n_kind != DT_N_VAR)
		return NULL;
	dt_ident *id = dt_ident_lookup(&ctx->c_globals, n->n_str);
	if (id == NULL || id->id_kind != DT_IDK_INLINE || id->id_busy ||
	    id->id_expr->n_kind != DT_N_XLATE)
		return NULL;
	return id;
}

static void xlate_inline_check(dt_ctx *ctx, dt_ident *id)
{
	char a[64], b[64];
	dt_node *x = clone(ctx, id->id_expr, id->id_expr);
	dt_type *out = x->n_ctype;
	if (out->ty_kind == DT_TK_PTR)
		out = out->ty_base;
	id->id_busy = true;
	x->n_a = dt_sema_expr(ctx, x->n_a);
	id->id_busy = false;
	if (dt_xlator_lookup(ctx, out, x->n_a->n_type) == NULL)
		dt_error_node(ctx, x, "D_XLATE_NONE", "translator does not "
		    "exist: %s -> %s", dt_sema_tname(x->n_a->n_type, a,
		    sizeof(a)), dt_sema_tname(out, b, sizeof(b)));
}

void dt_inline_check(dt_ctx *ctx, dt_ident *id, dt_node *where)
{
	if (id->id_expr->n_kind == DT_N_XLATE)
		xlate_inline_check(ctx, id);
	else
		(void)inline_use(ctx, id, where);
}

/*
 * A read of a D variable (self->x, this->x, or an array) that nothing has
 * assigned yet, in program order: DTrace's D_VAR_UNDEF.
 */
_Noreturn void dt_sema_var_undef(dt_ctx *ctx, const dt_node *n)
{
	dt_error_node(ctx, n, "D_VAR_UNDEF", "%s%s has not yet been declared "
	    "or assigned", n->n_kind == DT_N_SELF ? "self->" :
	    n->n_kind == DT_N_THIS ? "this->" : "", n->n_str);
}

/* Does the subtree n (a list, through n_next) assign the variable v? */
static bool assigns(const dt_node *n, const dt_node *v)
{
	for (; n != NULL; n = n->n_next) {
		const dt_node *t = NULL;
		if (n->n_kind == DT_N_OP2 && (n->n_op == DT_T_ASGN ||
		    dt_tok_compound_op(n->n_op) != n->n_op))
			t = n->n_a;
		if (n->n_kind == DT_N_OP1 && (n->n_op == DT_T_INC ||
		    n->n_op == DT_T_DEC))
			t = n->n_a;
		if (t != NULL && t->n_kind == DT_N_INDEX)
			t = t->n_a;
		if (t != NULL && t->n_kind == v->n_kind && t->n_str != NULL &&
		    dt_streq(t->n_str, v->n_str))
			return true;
		if ((n->n_kind != DT_N_AGG && assigns(n->n_a, v)) ||
		    assigns(n->n_b, v) || assigns(n->n_c, v) ||
		    (n->n_kind != DT_N_STR && assigns(n->n_args, v)))
			return true;
	}
	return false;
}

/*
 * While a predicate is cooked: does the clause's body assign v (a self->
 * or this-> node)?  DTrace cooks the body first, so such a predicate may
 * read the variable the body creates.
 */
bool dt_sema_body_assigns(dt_ctx *ctx, const dt_node *v)
{
	return ctx->c_predbody != NULL && assigns(ctx->c_predbody, v);
}

/*
 * An associative array named without its keys, as DTrace reports it: a
 * global is the wrong kind of identifier (D_IDENT_BADREF); a self-> or
 * this-> one is checked against its keys, none given (D_PROTO_LEN).
 */
_Noreturn void dt_sema_unindexed(dt_ctx *ctx, const dt_node *n, int scope,
                                 const dt_ident *id)
{
	if (scope == DIF_SCOPE_GLOBAL)
		dt_error_node(ctx, n, "D_IDENT_BADREF", "associative array "
		    "'%s' may not be referenced as scalar", id->id_name);
	dt_error_node(ctx, n, "D_PROTO_LEN", "%s[ ] prototype mismatch: 0 "
	    "keys passed, %u expected", id->id_name, id->id_nkeys);
}

/*
 * args[i] and uregs[i] as DTrace checks them: one index (D_PROTO_LEN), an
 * integer (D_PROTO_ARG), a constant in range (D_ARGS_IDX, D_REGS_IDX).
 * DTrace insists on a constant; Sonde also takes a variable index.
 */
static void builtin_index_check(dt_ctx *ctx, dt_node *n, const char *name,
                                const dif_builtin_t *bi)
{
	uint32_t nk = 0;
	for (dt_node *k = n->n_args; k != NULL; k = k->n_next)
		nk++;
	if (nk != 1)
		dt_error_node(ctx, n, "D_PROTO_LEN", "%s[ ] prototype mismatch: "
		    "%u arg%s passed, 1 expected", name, nk, nk == 1 ? "" : "s");
	dt_node *k = n->n_args;
	if (!dt_type_isint(k->n_type)) {	/* (a variable index: Sonde's) */
		char b[64];
		dt_error_node(ctx, n, "D_PROTO_ARG", "%s[ ] argument #1 is "
		    "incompatible with prototype:\n\tprototype: integer "
		    "constant\n\t argument: %s", name,
		    dt_sema_tname(k->n_type, b, sizeof(b)));
	}
	if (!dt_sema_is_const(k))
		return;
	if (bi->bi_id != DIF_VAR_ARGS) {
		if (k->n_type->ty_signed && k->n_ival < 0)
			dt_error_node(ctx, n, "D_REGS_IDX", "index %lld is out "
			    "of range for array %s", (long long)k->n_ival, name);
		return;
	}
	if ((uint64_t)k->n_ival > 9) {
		const dt_probedesc *pd = ctx->c_cl.cs_clause != NULL &&
		    ctx->c_cl.cs_clause->cl_nprobes > 0 ?
		    &ctx->c_cl.cs_clause->cl_probes[0] : NULL;
		dt_error_node(ctx, n, "D_ARGS_IDX", "index %lld is out of range "
		    "for %s:%s:%s:%s %s[ ]", (long long)k->n_ival,
		    pd ? pd->pd_prov : "", pd ? pd->pd_mod : "",
		    pd ? pd->pd_func : "", pd ? pd->pd_name : "", name);
	}
}

dt_node *dt_cook_var(dt_ctx *ctx, dt_node *n)
{
	dt_ident *id = dt_ident_lookup(&ctx->c_globals, n->n_str);
	bool hidden = id != NULL && id->id_kind == DT_IDK_INLINE &&
	    id->id_busy;
	if (hidden)
		id = NULL;	/* its own body: the built-in it hides */
	if (id != NULL) {
		switch (id->id_kind) {
		case DT_IDK_ENUMCONST:
			return dt_node_int(ctx, n, id->id_value, id->id_type);
		case DT_IDK_INLINE:
			return inline_use(ctx, id, n);
		case DT_IDK_ARRAY:
			dt_sema_unindexed(ctx, n, DIF_SCOPE_GLOBAL, id);
		default:
			n->n_ident = id;
			n->n_type = id->id_type;
			n->n_flags |= DT_NF_LVAL;
			return n;
		}
	}
	const dif_builtin_t *bi = dif_builtin_lookup(n->n_str,
	    dt_strlen(n->n_str));
	if (bi != NULL) {
		if (bi->bi_array)	/* DTrace: an array, not a scalar */
			dt_error_node(ctx, n, "D_IDENT_BADREF", "associative "
			    "array '%s' may not be referenced as scalar",
			    n->n_str);
		if (hidden) {
			id = dt_alloc(ctx, sizeof(*id));
			id->id_name = n->n_str;
			id->id_kind = DT_IDK_BUILTIN;
		} else {
			id = dt_ident_insert(ctx, &ctx->c_globals, n->n_str,
			    DT_IDK_BUILTIN);
		}
		id->id_id = bi->bi_id;
		id->id_type = builtin_type(ctx, bi);
		n->n_ident = id;
		n->n_type = id->id_type;
		return n;
	}
	const dt_func *fn = dt_func_lookup(ctx, n->n_str);
	if (fn != NULL)		/* DTrace: the wrong kind of identifier */
		dt_error_node(ctx, n, "D_IDENT_BADREF", "%s '%s' may not be "
		    "referenced as scalar", fn->fn_class == DT_FN_AGG ?
		    "aggregating function" : fn->fn_subr >= 0 ? "function" :
		    "tracing function", n->n_str);
	dt_error_node(ctx, n, "D_IDENT_UNDEF", "failed to resolve %s: "
	    "Unknown variable name", n->n_str);
}

/*
 * The D variable `name` of a scope, or NULL.  With a type t, a variable
 * not found is created (an associative array if arr) with the next DIF
 * variable id of its scope.  A global or thread-local scalar is listed in
 * the program's variables now, an array once its key types are known
 * (dt_sema_keys_define).
 */
dt_ident *dt_sema_dvar_get(dt_ctx *ctx, int scope, const char *name, dt_type *t, bool arr)
{
	dt_idhash *h = scope == DIF_SCOPE_THREAD ? &ctx->c_tls :
	    scope == DIF_SCOPE_LOCAL ? &ctx->c_locals : &ctx->c_globals;
	dt_ident *id = dt_ident_lookup(h, name);
	if (id != NULL || t == NULL)
		return id;
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
	return id;
}

/* self->x / this->x as an rvalue: implicitly an int until assigned. */
dt_node *dt_cook_selfthis(dt_ctx *ctx, dt_node *n)
{
	int scope = n->n_kind == DT_N_SELF ? DIF_SCOPE_THREAD :
	    DIF_SCOPE_LOCAL;
	dt_ident *id = dt_sema_dvar_get(ctx, scope, n->n_str, NULL, false);
	if (id == NULL && !dt_sema_body_assigns(ctx, n))
		dt_sema_var_undef(ctx, n);
	if (id == NULL)
		id = dt_sema_dvar_get(ctx, scope, n->n_str, ctx->c_t_int, false);
	if (id->id_kind == DT_IDK_ARRAY)
		dt_sema_unindexed(ctx, n, scope, id);
	n->n_ident = id;
	n->n_type = id->id_type;
	n->n_flags |= DT_NF_LVAL;
	return n;
}

/*
 * `name: a kernel data object of its CTF type (dt_ctf.c), or without a CTF
 * dict an unsigned integer of its size.  The node becomes *(T *)address.
 * A symbol the kernel has but CTF does not type is DTrace's D_SYM_NOTYPES.
 */
dt_node *dt_cook_sym(dt_ctx *ctx, dt_node *n)
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
	dt_type *ct = dt_ctf_var(ctx, n->n_str);	/* its kernel type */
	if (ct == NULL && o->o_ctf != NULL)	/* DTrace: a symbol, no type */
		dt_error_node(ctx, n, "D_SYM_NOTYPES", "no symbolic type "
		    "information is available for `%s", n->n_str);
	if (ct != NULL && ct->ty_kind != DT_TK_FUNC &&
	    ct->ty_kind != DT_TK_VOID && ct->ty_complete)
		t = ct;
	dt_node *p = dt_node_int(ctx, n, (int64_t)addr, dt_type_ptr(ctx, t));
	n->n_kind = DT_N_OP1;
	n->n_op = DT_T_STAR;
	n->n_a = p;
	n->n_type = t;
	n->n_flags |= DT_NF_LVAL;
	return n;
}

/* ---- postfix forms ---- */

static dt_ident *param_inline(dt_ctx *ctx, const dt_node *n);
static dt_node *param_inline_expand(dt_ctx *ctx, dt_ident *id, dt_node *n, dt_node **slot,
                                    dt_node *(*fn)(dt_ctx *, dt_node *), dt_node *arg);

static dt_node *cook_expr(dt_ctx *ctx, dt_node *n)
{
	return dt_sema_expr(ctx, n);
}

dt_node *dt_cook_index(dt_ctx *ctx, dt_node *n)
{
	dt_ident *pi = param_inline(ctx, n);
	if (pi != NULL) {		/* fds[0] as a value: the body, bound */
		dt_node *body = NULL;
		return param_inline_expand(ctx, pi, n, &body, cook_expr, NULL);
	}
	dt_node *b = n->n_a;
	for (dt_node **k = &n->n_args; *k != NULL; k = &(*k)->n_next) {
		dt_node *nx = (*k)->n_next;
		*k = dt_sema_expr(ctx, *k);
		(*k)->n_next = nx;
	}
	if (b->n_kind == DT_N_VAR) {
		const dif_builtin_t *bi = dif_builtin_lookup(b->n_str,
		    dt_strlen(b->n_str));
		if (bi != NULL && bi->bi_array) {
			builtin_index_check(ctx, n, b->n_str, bi);
			b->n_ival = bi->bi_id;
			n->n_type = dt_type_lookup(ctx, "int64_t");
			n->n_ival = -1;		/* marks a built-in array */
			dt_type *at = bi->bi_id == DIF_VAR_ARGS &&
			    dt_sema_is_const(n->n_args) ?
			    dt_ctf_arg(ctx, n, n->n_args->n_ival) : NULL;
			if (at != NULL)		/* the probe's type (dt_ctf.c) */
				return dt_sema_cast_to(ctx, n, at);
			return n;
		}
	}
	if (b->n_kind == DT_N_VAR || b->n_kind == DT_N_SELF ||
	    b->n_kind == DT_N_THIS) {
		int scope = b->n_kind == DT_N_SELF ? DIF_SCOPE_THREAD :
		    b->n_kind == DT_N_THIS ? DIF_SCOPE_LOCAL :
		    DIF_SCOPE_GLOBAL;
		dt_ident *id = dt_sema_dvar_get(ctx, scope, b->n_str, NULL, true);
		if (id == NULL && scope == DIF_SCOPE_GLOBAL &&
		    dt_ident_lookup(&ctx->c_globals, b->n_str) == NULL &&
		    dif_builtin_lookup(b->n_str, dt_strlen(b->n_str)) == NULL)
			dt_sema_var_undef(ctx, b);
		if (id == NULL && scope == DIF_SCOPE_THREAD) {
			if (!dt_sema_body_assigns(ctx, b))
				dt_sema_var_undef(ctx, b);
			id = dt_sema_dvar_get(ctx, scope, b->n_str, ctx->c_t_int, true);
		}
		dt_ident *lv = scope == DIF_SCOPE_LOCAL ? dt_ident_lookup(
		    &ctx->c_locals, b->n_str) : NULL;
		if (scope == DIF_SCOPE_LOCAL && !dt_sema_is_ptrvar(id) &&
		    (lv == NULL || (lv->id_type->ty_kind != DT_TK_ARRAY &&
		    !dt_type_isstring(lv->id_type))))	/* this->s[i]: a char */
			dt_error_node(ctx, n, "D_ARR_LOCAL", "local variables "
			    "may not be used as associative arrays: %s",
			    b->n_str);
		if (id != NULL && id->id_kind == DT_IDK_ARRAY) {
			dt_sema_array_keys(ctx, n, id);
			b->n_ident = id;
			n->n_ident = id;
			n->n_type = id->id_type;
			n->n_flags |= DT_NF_LVAL;
			return n;
		}
	}
	/* pointer or array indexing: p[i] is *(p + i) */
	b = n->n_a = dt_sema_expr(ctx, b);
	bool str = dt_type_isstring(b->n_type);
	if (str)	/* s[i]: DTrace's string is a char array; a value */
		b = n->n_a = dt_sema_str_chars(ctx, b);
	if (b->n_type->ty_kind != DT_TK_PTR &&
	    b->n_type->ty_kind != DT_TK_ARRAY) {
		if (dt_sema_is_dvar(b))
			dt_error_node(ctx, n, "D_IDENT_BADREF", "%s is a "
			    "scalar variable and may not be indexed",
			    b->n_ident->id_name);
		dt_error_node(ctx, n, "D_OP_ARRFUN", "[ ] operator must be "
		    "applied to an array, pointer or associative array");
	}
	if (n->n_args->n_next != NULL || !dt_type_isint(n->n_args->n_type))
		dt_error_node(ctx, n, "D_OP_INT", "[ ] index must be a single "
		    "integer");
	if (b->n_type->ty_base->ty_kind == DT_TK_VOID)	/* *(p + i) */
		dt_error_node(ctx, n, "D_DEREF_VOID", "cannot dereference "
		    "pointer to void");
	if (b->n_type->ty_kind == DT_TK_ARRAY &&
	    dt_sema_is_const(n->n_args) && (n->n_args->n_ival < 0 ||
	    n->n_args->n_ival >= (int64_t)b->n_type->ty_nelem))
		dt_error_node(ctx, n, "D_ARR_BADREF", "index %lld is out of "
		    "range for an array of %u elements",
		    (long long)n->n_args->n_ival, b->n_type->ty_nelem);
	n->n_type = b->n_type->ty_base;
	if (!str)	/* a string's bytes are not written through s[i] */
		n->n_flags |= DT_NF_LVAL;
	n->n_ival = -2;		/* marks memory indexing */
	return n;
}

static dt_node *cook_xlate_member(dt_ctx *ctx, dt_node *n);

/*
 * An inline with parameters (the library's fds[int fd]) used as
 * name[args]: its ident, or NULL if n is not such a use.
 */
static dt_ident *param_inline(dt_ctx *ctx, const dt_node *n)
{
	if (n->n_kind != DT_N_INDEX || n->n_a == NULL || n->n_a->n_kind != DT_N_VAR)
		return NULL;
	dt_ident *id = dt_ident_lookup(&ctx->c_globals, n->n_a->n_str);
	if (id == NULL || id->id_kind != DT_IDK_INLINE || id->id_params == NULL)
		return NULL;
	if (id->id_busy)
		dt_error_node(ctx, n, "D_IDENT_UNDEF", "inline %s refers to "
		    "itself", id->id_name);
	return id;
}

/*
 * Expand the use n of id (param_inline): each parameter becomes an
 * inline standing for its argument (cooked, cast to the parameter's type)
 * while fn cooks the body, as a translator binds its input (cook_xlate_member).
 * The body replaces *slot before fn(ctx, arg) runs (arg NULL: fn cooks the
 * body itself); its result is returned.
 */
static dt_node *param_inline_expand(dt_ctx *ctx, dt_ident *id, dt_node *n, dt_node **slot,
                                    dt_node *(*fn)(dt_ctx *, dt_node *), dt_node *arg)
{
	dt_ident *bound[DT_MAXKEYS];
	int np = 0, na = 0;
	for (dt_node *p = id->id_params; p != NULL; p = p->n_next)
		np++;
	for (dt_node *a = n->n_args; a != NULL; a = a->n_next)
		na++;
	if (np != na || np > DT_MAXKEYS)
		dt_error_node(ctx, n, "D_PROTO_LEN", "%s[ ] prototype mismatch: "
		    "%d arg%s passed, %d expected", id->id_name, na, na == 1 ? "" : "s", np);
	dt_node *a = n->n_args;
	int i = 0;
	for (dt_node *p = id->id_params; p != NULL; p = p->n_next, i++) {
		dt_node *nx = a->n_next;
		dt_node *v = dt_sema_cast_to(ctx, dt_sema_expr(ctx, a), p->n_ctype);
		v->n_next = NULL;
		v->n_flags |= DT_NF_COOKED;
		a = nx;
		bound[i] = dt_ident_insert(ctx, &ctx->c_globals, p->n_str, DT_IDK_INLINE);
		bound[i]->id_type = p->n_ctype;
		bound[i]->id_expr = v;
	}
	*slot = clone(ctx, id->id_expr, n);
	id->id_busy = true;
	dt_node *r = fn(ctx, arg != NULL ? arg : *slot);
	id->id_busy = false;
	while (i-- > 0)
		bound[i]->id_name = "";	/* unbind */
	return r;
}

dt_node *dt_cook_member(dt_ctx *ctx, dt_node *n)
{
	char b[64];
	dt_ident *pi = param_inline(ctx, n->n_a);
	if (pi != NULL)		/* fds[0].fi_pathname */
		return param_inline_expand(ctx, pi, n->n_a, &n->n_a, dt_cook_member, n);
	n->n_a = dt_ctf_xlate_arg(ctx, n->n_a);	/* sched's args[0]->m */
	if (n->n_a->n_kind == DT_N_XLATE)
		return cook_xlate_member(ctx, n);
	dt_ident *xi = xlate_inline(ctx, n->n_a);
	if (xi != NULL) {
		n->n_a = clone(ctx, xi->id_expr, n->n_a);
		xi->id_busy = true;
		dt_node *r = cook_xlate_member(ctx, n);
		xi->id_busy = false;
		return r;
	}
	dt_node *a = n->n_a = dt_sema_expr(ctx, n->n_a);
	dt_type *t = a->n_type;
	if (n->n_op == DT_T_ARROW) {
		if (t->ty_kind != DT_TK_PTR)
			dt_error_node(ctx, n, "D_OP_PTR", "operator -> must be "
			    "applied to a pointer");
		t = t->ty_base;
	}
	if (t->ty_kind != DT_TK_STRUCT && t->ty_kind != DT_TK_UNION)
		dt_error_node(ctx, n, "D_OP_SOU", n->n_op == DT_T_ARROW ?
		    "operator -> cannot be applied to pointer to type \"%s\"; "
		    "must be applied to a struct or union pointer" :
		    "operator . cannot be applied to type \"%s\"; must be "
		    "applied to a struct or union", dt_sema_tname(t, b, sizeof(b)));
	if (!t->ty_complete)
		dt_error_node(ctx, n, "D_OP_INCOMPLETE", "operator %s cannot "
		    "be applied to incomplete type %s", dt_tok_name(n->n_op),
		    dt_sema_tname(t, b, sizeof(b)));
	dt_ctf_members(ctx, t);		/* a kernel struct's, on first use */
	for (dt_member *m = t->ty_members; m != NULL; m = m->m_next) {
		if (dt_streq(m->m_name, n->n_str)) {
			n->n_type = m->m_type;
			n->n_ival = m->m_off;
			n->n_flags |= DT_NF_LVAL;
			return n;
		}
	}
	dt_error_node(ctx, n, "D_TYPE_MEMBER", "%s is not a member of %s",
	    n->n_str, dt_sema_tname(t, b, sizeof(b)));
}

/* xlate<T>(e)->m: the translator's expression for m, with e bound. */
static DT_NOINLINE dt_node *cook_xlate_member(dt_ctx *ctx, dt_node *n)
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
	x->n_a = dt_sema_expr(ctx, x->n_a);
	dt_ident *xl = dt_xlator_lookup(ctx, out, x->n_a->n_type);
	if (xl == NULL)
		dt_error_node(ctx, x, "D_XLATE_NONE", "cannot translate from "
		    "\"%s\" to \"%s\"", dt_sema_tname(x->n_a->n_type, a,
		    sizeof(a)), dt_sema_tname(out, b, sizeof(b)));
	for (dt_node *m = xl->id_xlexprs; m != NULL; m = m->n_next) {
		if (!dt_streq(m->n_str, n->n_str))
			continue;
		/* bind the input name as an inline for this expansion */
		dt_ident *arg = dt_ident_insert(ctx, &ctx->c_globals,
		    xl->id_expr->n_str, DT_IDK_INLINE);
		arg->id_type = x->n_a->n_type;
		arg->id_expr = x->n_a;
		x->n_a->n_flags |= DT_NF_COOKED;
		dt_node *e = dt_sema_expr(ctx, clone(ctx, m->n_a, n));
		arg->id_name = "";	/* unbind */
		return e;
	}
	(void)b;
	dt_error_node(ctx, n, "D_XLATE_NOCONV", "translator does not define "
	    "conversion for member: %s", n->n_str);
}

/*
 * A translator's expression e for member m (defined by d) as the member
 * takes it: type-checked (D_XLATE_INCOMPAT), an integer cast to the
 * member's type; a string may fill a char array member (psinfo_t's
 * pr_fname), cut to its size.
 */
static dt_node *xlate_member_fit(dt_ctx *ctx, const dt_member *m, const dt_node *d,
                                 dt_node *e)
{
	char a[64], b[64];
	bool chars = m->m_type->ty_kind == DT_TK_ARRAY &&
	    m->m_type->ty_base->ty_kind == DT_TK_INT &&
	    m->m_type->ty_base->ty_size == 1 && dt_type_isstrcompat(e->n_type);
	if (!chars && !dt_sema_assignable(m->m_type, e->n_type))
		dt_error_node(ctx, d, "D_XLATE_INCOMPAT", "translator member %s "
		    "definition uses incompatible types: \"%s\" = \"%s\"",
		    m->m_name, dt_sema_tname(m->m_type, a, sizeof(a)),
		    dt_sema_tname(e->n_type, b, sizeof(b)));
	if (dt_type_isscalar(m->m_type))
		e = dt_sema_cast_to(ctx, e, m->m_type);
	return e;
}

/*
 * A program's translator, checked where it is declared as DTrace checks
 * it: each member's expression is cooked with the input bound to a value
 * of the input type (never generated) and must fit its member.  The
 * library's translators are checked at use instead (they name kernel
 * types some kernels lack).
 */
void dt_xlator_check(dt_ctx *ctx, dt_ident *xl)
{
	dt_node *in = dt_node_new(ctx, DT_N_INT, &ctx->c_tok);
	in->n_type = xl->id_xlin;
	in->n_flags = DT_NF_COOKED;
	for (dt_node *d = xl->id_xlexprs; d != NULL; d = d->n_next) {
		dt_member *m = xl->id_type->ty_members;
		while (m != NULL && !dt_streq(m->m_name, d->n_str))
			m = m->m_next;
		if (m == NULL)
			continue;	/* reported by dt_decl_xlator */
		dt_ident *arg = dt_ident_insert(ctx, &ctx->c_globals,
		    xl->id_expr->n_str, DT_IDK_INLINE);
		arg->id_type = xl->id_xlin;
		arg->id_expr = in;
		xl->id_busy = true;
		(void)xlate_member_fit(ctx, m, d, dt_sema_expr(ctx,
		    clone(ctx, d->n_a, d)));
		xl->id_busy = false;
		arg->id_name = "";	/* unbind */
	}
}

/*
 * xlate<T>(e) or xlate<T *>(e) as a value of its own (assigned whole to a
 * variable, printed, dereferenced): the translation is built in zeroed
 * scratch, each member the translator defines stored in turn, and the
 * value is that scratch (a struct, by reference) or its address.  The
 * members become n_args, one DT_N_EXPRSTMT each: n_a its cooked
 * expression, n_ival its offset, n_type its type (dt_cg.c's cg_xlate).
 * Members the translator leaves out read as zero.  Only . and -> of one
 * member (cook_xlate_member) skip the others' code.
 */
dt_node *dt_cook_xlate(dt_ctx *ctx, dt_node *n)
{
	char a[64], b[64];
	dt_type *out = n->n_ctype;
	bool ptr = out->ty_kind == DT_TK_PTR;
	dt_type *st = ptr ? out->ty_base : out;
	if (st->ty_kind != DT_TK_STRUCT && st->ty_kind != DT_TK_UNION)
		dt_error_node(ctx, n, "D_XLATE_SOU", "translator output type "
		    "must be a struct or union (or a pointer to one)");
	n->n_a = dt_sema_expr(ctx, n->n_a);
	dt_ident *xl = dt_xlator_lookup(ctx, st, n->n_a->n_type);
	if (xl == NULL)
		dt_error_node(ctx, n, "D_XLATE_NONE", "cannot translate from "
		    "\"%s\" to \"%s\"", dt_sema_tname(n->n_a->n_type, a,
		    sizeof(a)), dt_sema_tname(st, b, sizeof(b)));
	if (xl->id_busy)
		dt_error_node(ctx, n, "D_XLATE_NONE", "translator from \"%s\" "
		    "to \"%s\" translates itself", dt_sema_tname(
		    n->n_a->n_type, a, sizeof(a)), dt_sema_tname(st, b,
		    sizeof(b)));
	dt_node *head = NULL, **tail = &head;
	xl->id_busy = true;
	for (dt_member *m = st->ty_members; m != NULL; m = m->m_next) {
		dt_node *d;
		for (d = xl->id_xlexprs; d != NULL; d = d->n_next)
			if (dt_streq(d->n_str, m->m_name))
				break;
		if (d == NULL)
			continue;	/* left out: zero */
		dt_node *ref = dt_node_new(ctx, DT_N_MEMBER, &ctx->c_tok);
		ref->n_line = d->n_line;
		ref->n_col = d->n_col;
		ref->n_a = n;
		ref->n_op = ptr ? DT_T_ARROW : DT_T_DOT;
		ref->n_str = m->m_name;
		dt_node *e = xlate_member_fit(ctx, m, d, cook_xlate_member(ctx,
		    ref));
		dt_node *w = dt_node_new(ctx, DT_N_EXPRSTMT, &ctx->c_tok);
		w->n_a = e;
		w->n_ival = m->m_off;
		w->n_type = m->m_type;
		*tail = w;
		tail = &w->n_next;
	}
	xl->id_busy = false;
	n->n_args = head;
	n->n_type = out;
	return n;
}

dt_node *dt_cook_cast(dt_ctx *ctx, dt_node *n)
{
	char a[64], b[64];
	dt_node *e = n->n_a = dt_sema_expr(ctx, n->n_a);
	if (dt_type_isscalar(n->n_ctype))
		e = n->n_a = dt_sema_decay(ctx, e);	/* (char *)a */
	dt_type *to = n->n_ctype, *from = e->n_type;
	n->n_type = to;
	if (to->ty_kind == DT_TK_VOID)
		return n;
	if (dt_float_cast_ok(to, from))
		return n;		/* the bytes, unconverted (dt_float.c) */
	if ((dt_type_isscalar(to) && dt_type_isscalar(from)) ||
	    (dt_type_isstring(to) && dt_type_isstring(from))) {
		if (dt_sema_is_const(e))	/* (int)'a', (void *)0 */
			return dt_node_int(ctx, n, e->n_ival, to);
		return n;
	}
	/*
	 * D adds casts from scalars to strings: (string)p reads the string
	 * at p, like stringof.
	 */
	if (dt_type_isstring(to) && (dt_type_isscalar(from) ||
	    dt_type_isstrcompat(from))) {
		n->n_kind = DT_N_STRINGOF;
		return n;
	}
	dt_error_node(ctx, n, "D_CAST_INVAL", "invalid cast expression: \"%s\" to "
	    "\"%s\"", dt_sema_tname(from, a, sizeof(a)), dt_sema_tname(to, b, sizeof(b)));
}

dt_node *dt_cook_sizeof(dt_ctx *ctx, dt_node *n)
{
	dt_type *t = n->n_ctype;
	if (t == NULL) {
		n->n_a = dt_sema_expr(ctx, n->n_a);
		t = n->n_a->n_type;
		if (t->ty_bits != 0)
			dt_error_node(ctx, n, "D_SIZEOF_BITFIELD", "cannot "
			    "apply sizeof to a bit-field member");
	}
	if (t->ty_kind == DT_TK_VOID || !t->ty_complete ||
	    t->ty_kind == DT_TK_STACK || t->ty_kind == DT_TK_AGGFN ||
	    t->ty_kind == DT_TK_SYMADDR || t->ty_kind == DT_TK_FUNC)
		dt_error_node(ctx, n, "D_SIZEOF_TYPE", "cannot apply sizeof "
		    "to an operand of unknown size");
	if (n->n_ctype == NULL && n->n_a->n_kind == DT_N_STR) {
		/* "abc" is 4 bytes: the characters up to the first NUL + 1 */
		uint32_t len = 0;
		while (len < n->n_a->n_slen && n->n_a->n_str[len] != '\0')
			len++;
		return dt_node_int(ctx, n, len + 1, ctx->c_t_ulong);
	}
	return dt_node_int(ctx, n, t->ty_size, ctx->c_t_ulong);
}

dt_node *dt_cook_offsetof(dt_ctx *ctx, dt_node *n)
{
	char b[64];
	dt_type *t = n->n_ctype;
	if ((t->ty_kind != DT_TK_STRUCT && t->ty_kind != DT_TK_UNION) ||
	    !t->ty_complete)
		dt_error_node(ctx, n, "D_OFFSETOF_TYPE", "offsetof operand "
		    "must be a struct or union type");
	dt_ctf_members(ctx, t);		/* a kernel struct's, on first use */
	for (dt_member *m = t->ty_members; m != NULL; m = m->m_next) {
		if (!dt_streq(m->m_name, n->n_str))
			continue;
		if (m->m_type->ty_bits != 0)
			dt_error_node(ctx, n, "D_OFFSETOF_BITFIELD", "cannot "
			    "take offset of a bit-field: %s", n->n_str);
		return dt_node_int(ctx, n, m->m_off, ctx->c_t_ulong);
	}
	dt_error_node(ctx, n, "D_TYPE_MEMBER", "%s is not a member of %s",
	    n->n_str, dt_sema_tname(t, b, sizeof(b)));
}

dt_node *dt_cook_stringof(dt_ctx *ctx, dt_node *n)
{
	char b[64];
	n->n_a = dt_sema_expr(ctx, n->n_a);
	dt_type *t = n->n_a->n_type;
	if (!dt_type_isscalar(t) && !dt_type_isstring(t) &&
	    !(t->ty_kind == DT_TK_ARRAY && t->ty_base->ty_size == 1))
		dt_error_node(ctx, n, "D_STRINGOF_TYPE", "cannot apply "
		    "stringof to a value of type %s", dt_sema_tname(t, b,
		    sizeof(b)));
	n->n_type = ctx->c_t_string;
	return n;
}

