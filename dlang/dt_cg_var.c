/*
 * dlang/dt_cg_var.c: DIF code generation for variables and memory.
 *
 * A variable's load or store is one DIF instruction chosen by its scope
 * (global, thread-local, clause-local) and kind (scalar or associative
 * array, whose key tuple is pushed first: dt_cg_push_tuple); the DIFO's
 * variable table names every variable it touches.  A member, an array
 * element or a dereference is an address computed into a register
 * (dt_cg_addr: base, scaled index, member offset, and a bounds check for a
 * D array of known size), then a load or store of the type's width; a
 * bit-field is cut and extended around it.  Assignment and ++/-- to any
 * lvalue (variable, member, element, *p) are here; the value assigned is
 * the expression's value.
 *
 * Context: as the compiler's (dlang/dt.h); shares dlang/dt_cg_impl.h
 * with dt_cg.c and dt_cg_op.c.
 *
 * Tests: tests/dlang/ (exact DIF); tests/d/variables, tests/d/pointers,
 *        tests/d/integers, tests/d/types (bit-fields)
 */
#include "dlang/dt_cg_impl.h"

/* ---- variables ---- */

dif_type_t dt_cg_dif_type_of(dt_ctx *ctx, const dt_type *t)
{
	dif_type_t d = { DIF_TYPE_INT, 0, 0, 8 };
	if (t == NULL)
		return d;
	if (dt_type_isstring(t)) {
		d.dt_kind = DIF_TYPE_STRING;
		d.dt_flags = DIF_TF_BYREF;
		d.dt_size = 0;
	} else if (t->ty_kind == DT_TK_STRUCT || t->ty_kind == DT_TK_UNION ||
	    t->ty_kind == DT_TK_ARRAY || (t->ty_kind == DT_TK_FLOAT &&
	    t->ty_size > 8)) {
		d.dt_kind = DIF_TYPE_BLOB;
		d.dt_flags = DIF_TF_BYREF;
		d.dt_size = t->ty_size;
	} else if (t->ty_kind == DT_TK_VOID) {
		d.dt_kind = DIF_TYPE_VOID;
		d.dt_size = 0;
	} else {
		d.dt_flags = t->ty_signed && t->ty_kind != DT_TK_PTR ?
		    DIF_TF_SIGNED : 0;
		d.dt_size = t->ty_kind == DT_TK_PTR || t->ty_size == 0 ? 8 :
		    t->ty_size;
	}
	(void)ctx;
	return d;
}

/* Add a user variable to the DIFO's variable table (once). */
void dt_cg_var_ref(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, dt_ident *id, bool store)
{
	uint8_t kind = id->id_kind == DT_IDK_ARRAY ? DIF_VKIND_ARRAY :
	    DIF_VKIND_SCALAR;
	for (uint32_t i = 0; i < b->cb_nvars; i++) {
		dif_var_t *v = &b->cb_vars[i];
		if (v->dv_id == id->id_id && v->dv_scope == id->id_scope &&
		    v->dv_kind == kind) {
			v->dv_flags |= store ? DIF_DVF_WRITTEN : DIF_DVF_READ;
			return;
		}
	}
	b->cb_vars = dt_grow(ctx, b->cb_vars, b->cb_nvars, &b->cb_capv,
	    sizeof(dif_var_t));
	dif_var_t *v = &b->cb_vars[b->cb_nvars++];
	__builtin_memset(v, 0, sizeof(*v));
	v->dv_name = dt_cg_str_offset(ctx, b, where, id->id_name,
	    (uint32_t)dt_strlen(id->id_name));
	v->dv_id = id->id_id;
	v->dv_scope = id->id_scope;
	v->dv_kind = kind;
	v->dv_flags = store ? DIF_DVF_WRITTEN : DIF_DVF_READ;
	v->dv_type = dt_cg_dif_type_of(ctx, id->id_type);
}

/*
 * Evaluate then push a tuple (array keys or call arguments).  Usually all
 * are evaluated first, then pushed.  When that would not fit in the
 * registers left and the tuple has no side effects, only the elements that
 * push tuples of their own are evaluated first (in order); each of the
 * others is evaluated just before it is pushed, taking one register at a
 * time (register pressure, above).
 */
/* A struct or union key: its bytes, pushed by reference with its size. */
static void push_mem(dt_ctx *ctx, dt_cgbuf *b, dt_node *a, int rv)
{
	int rs = dt_cg_reg_alloc(ctx, b, a);
	dt_cg_set_int(ctx, b, a, a->n_type->ty_size, rs);
	dt_cg_emit(ctx, b, DIF_INSTR_PUSHTR(DIF_TT_MEM, rs, rv));
	dt_cg_reg_free(b, rs);
}

void dt_cg_push_tuple(dt_ctx *ctx, dt_cgbuf *b, dt_node *first)
{
	int regs[DT_MAXARGS];
	uint32_t n = 0;
	int held = 0, worst = 0;
	bool impure = false;
	for (dt_node *a = first; a != NULL && n < DT_MAXARGS; a = a->n_next, n++) {
		dt_need k = dt_cg_need(a);
		impure |= k.nd_impure;
		regs[n] = k.nd_tuple ? 0 : -1;		/* 0: evaluate it first */
		if (held + k.nd_regs > worst)
			worst = held + k.nd_regs;
		held++;
	}
	bool lazy = !impure && worst > dt_cg_regs_free(b);
	n = 0;
	for (dt_node *a = first; a != NULL && n < DT_MAXARGS; a = a->n_next, n++)
		if (!lazy || regs[n] == 0)
			regs[n] = dt_cg_node(ctx, b, a);
	if (n > DIF_TUPLE_MAX)
		dt_error_node(ctx, first, "D_CG_EXPR", "too many tuple "
		    "elements (limit %d)", DIF_TUPLE_MAX);
	uint32_t i = 0;
	for (dt_node *a = first; a != NULL && i < n; a = a->n_next, i++) {
		if (regs[i] < 0)
			regs[i] = dt_cg_node(ctx, b, a);
		if (dt_type_isstring(a->n_type))
			dt_cg_emit(ctx, b, DIF_INSTR_PUSHTR(DIF_TT_STR, 0, regs[i]));
		else if (a->n_type->ty_kind == DT_TK_STRUCT ||
		    a->n_type->ty_kind == DT_TK_UNION)
			push_mem(ctx, b, a, regs[i]);
		else
			dt_cg_emit(ctx, b, DIF_INSTR_PUSHTV(regs[i]));
		dt_cg_reg_free(b, regs[i]);
	}
}

static unsigned var_op(const dt_ident *id, bool store)
{
	bool arr = id->id_kind == DT_IDK_ARRAY;
	switch (id->id_scope) {
	case DIF_SCOPE_THREAD:
		return (arr ? (store ? DIF_OP_STTAA : DIF_OP_LDTAA) :
		    (store ? DIF_OP_STTS : DIF_OP_LDTS));
	case DIF_SCOPE_LOCAL:
		return store ? DIF_OP_STLS : DIF_OP_LDLS;
	default:
		return (arr ? (store ? DIF_OP_STGAA : DIF_OP_LDGAA) :
		    (store ? DIF_OP_STGS : DIF_OP_LDGS));
	}
}

/* Load the D variable (or array element) that node n names into rd. */
void dt_cg_var_load(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, int rd)
{
	dt_ident *id = n->n_ident;
	if (id->id_kind == DT_IDK_BUILTIN) {
		dt_cg_emit(ctx, b, DIF_INSTR_VLOAD(DIF_OP_LDGS, id->id_id, rd));
		return;
	}
	if (id->id_kind == DT_IDK_ARRAY)
		dt_cg_push_tuple(ctx, b, n->n_args);
	dt_cg_var_ref(ctx, b, n, id, false);
	dt_cg_emit(ctx, b, DIF_INSTR_VLOAD(var_op(id, false), id->id_id, rd));
	if (dt_cg_by_ref(id->id_type) && !dt_type_isstring(id->id_type)) {
		/* an unset struct/array reads as zeroed scratch, not NULL */
		uint32_t lok = dt_cg_label_new(ctx, b);
		dt_cg_emit(ctx, b, DIF_INSTR_TST(rd));
		dt_cg_branch(ctx, b, DIF_OP_BNE, lok);
		int rs = dt_cg_reg_alloc(ctx, b, n);
		dt_cg_set_int(ctx, b, n, id->id_type->ty_size, rs);
		dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_ALLOCS, rs, rd));
		dt_cg_reg_free(b, rs);
		dt_cg_label_here(b, lok);
	}
}

static void var_store(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, int rs)
{
	dt_ident *id = n->n_ident;
	if (id->id_kind == DT_IDK_ARRAY)
		dt_cg_push_tuple(ctx, b, n->n_args);
	dt_cg_var_ref(ctx, b, n, id, true);
	dt_cg_emit(ctx, b, DIF_INSTR_VSTORE(var_op(id, true), id->id_id, rs));
}

/*
 * A bit-field (dt_bitfield.c) lives in the low ty_bits bits of its bytes:
 * after a load keep them, sign-extended if the type is signed; before a
 * store cut the value to them.
 */
void dt_cg_bitfield_extend(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const dt_type *t,
                            int rd)
{
	if (t->ty_bits == 0)
		return;
	int rs = dt_cg_reg_alloc(ctx, b, where);
	dt_cg_set_int(ctx, b, where, 64 - t->ty_bits - t->ty_bitoff, rs);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_SHL, rd, rs, rd));
	if (t->ty_bitoff != 0)		/* a kernel bit-field (dt_ctf.c) */
		dt_cg_set_int(ctx, b, where, 64 - t->ty_bits, rs);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(t->ty_signed ? DIF_OP_SRA : DIF_OP_SRL, rd,
	    rs, rd));
	dt_cg_reg_free(b, rs);
}

static void bitfield_cut(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const dt_type *t,
                         int rv)
{
	if (t->ty_bits == 0 || t->ty_bits >= 64)
		return;
	int rs = dt_cg_reg_alloc(ctx, b, where);
	dt_cg_set_int(ctx, b, where, ((uint64_t)1 << t->ty_bits) - 1, rs);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_AND, rv, rs, rv));
	dt_cg_reg_free(b, rs);
}

/* ---- addresses ---- */

static void bounds_check(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int ri,
    uint32_t nelem);

static void add_const(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int rd, uint64_t v)
{
	if (v == 0)
		return;
	int rs = dt_cg_reg_alloc(ctx, b, where);
	dt_cg_set_int(ctx, b, where, v, rs);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_ADD, rd, rs, rd));
	dt_cg_reg_free(b, rs);
}

void dt_cg_scale(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int r, uint32_t size)
{
	if (size <= 1)
		return;
	int rs = dt_cg_reg_alloc(ctx, b, where);
	dt_cg_set_int(ctx, b, where, size, rs);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_MUL, r, rs, r));
	dt_cg_reg_free(b, rs);
}

/* The address of an lvalue in memory: *p, p->m, s.m, p[i]. */
DT_NOINLINE int dt_cg_addr(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	int r;
	switch (n->n_kind) {
	case DT_N_OP1:		/* *p */
		return dt_cg_node(ctx, b, n->n_a);
	case DT_N_MEMBER:
		r = n->n_op == DT_T_ARROW ? dt_cg_node(ctx, b, n->n_a) :
		    dt_cg_addr(ctx, b, n->n_a);
		add_const(ctx, b, n, r, (uint64_t)n->n_ival);
		return r;
	case DT_N_INDEX: {	/* p[i] */
		if (n->n_ival != -2)	/* an associative array's struct element */
			return dt_cg_node(ctx, b, n);
		r = n->n_a->n_type->ty_kind == DT_TK_ARRAY ?
		    dt_cg_addr(ctx, b, n->n_a) : dt_cg_node(ctx, b, n->n_a);
		int ri = dt_cg_node(ctx, b, n->n_args);
		if (n->n_a->n_type->ty_kind == DT_TK_ARRAY &&
		    !(n->n_args->n_flags & DT_NF_CONST))
			bounds_check(ctx, b, n, ri, n->n_a->n_type->ty_nelem);
		dt_cg_scale(ctx, b, n, ri, n->n_type->ty_size);
		dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_ADD, r, ri, r));
		dt_cg_reg_free(b, ri);
		return r;
	}
	default:
		/* a by-reference value is its own address */
		return dt_cg_node(ctx, b, n);
	}
}


static void bounds_check(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int ri,
                         uint32_t nelem)
{
	uint32_t lok = dt_cg_label_new(ctx, b);
	int rn = dt_cg_reg_alloc(ctx, b, where);
	dt_cg_set_int(ctx, b, where, nelem, rn);
	dt_cg_emit(ctx, b, DIF_INSTR_CMP(DIF_OP_CMP, ri, rn));
	dt_cg_branch(ctx, b, DIF_OP_BLU, lok);
	dt_cg_emit(ctx, b, DIF_INSTR_LOAD(DIF_OP_LDX, 0, rn));
	dt_cg_label_here(b, lok);
	dt_cg_reg_free(b, rn);
}

/* The address of l inside a copy of its root variable held at rbase. */
static int cg_subaddr(dt_ctx *ctx, dt_cgbuf *b, dt_node *l, dt_node *root, int rbase)
{
	int r;
	if (l == root) {
		r = dt_cg_reg_alloc(ctx, b, l);
		dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, rbase, r));
		return r;
	}
	r = cg_subaddr(ctx, b, l->n_a, root, rbase);
	if (l->n_kind == DT_N_MEMBER) {
		add_const(ctx, b, l, r, (uint64_t)l->n_ival);
		return r;
	}
	int ri = dt_cg_node(ctx, b, l->n_args);
	if (!(l->n_args->n_flags & DT_NF_CONST))
		bounds_check(ctx, b, l, ri, l->n_a->n_type->ty_nelem);
	dt_cg_scale(ctx, b, l, ri, l->n_type->ty_size);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_ADD, r, ri, r));
	dt_cg_reg_free(b, ri);
	return r;
}

/* *(t *)ra = rv (by-reference values are copied). */
static void store(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const dt_type *t, int rv,
                  int ra)
{
	static const unsigned ops[] = { DIF_OP_STB, DIF_OP_STH, DIF_OP_STW,
	    DIF_OP_STW, DIF_OP_STX, DIF_OP_STX, DIF_OP_STX, DIF_OP_STX };
	if (dt_cg_by_ref(t)) {
		int rs = dt_cg_reg_alloc(ctx, b, where);
		dt_cg_set_int(ctx, b, where, t->ty_size, rs);
		dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_COPYS, rv, rs, ra));
		dt_cg_reg_free(b, rs);
		return;
	}
	uint32_t sz = t->ty_kind == DT_TK_PTR ? 8 : t->ty_size;
	bitfield_cut(ctx, b, where, t, rv);
	dt_cg_emit(ctx, b, DIF_INSTR_STORE(ops[(sz - 1) & 7], rv, ra));
}

/*
 * p.m = v, a[i] = v, p.a[i].m op= v on a struct/array D variable: copy the
 * variable into scratch, store into the copy, store the copy back (the
 * environment copies the bytes).  DIF stores only ever reach scratch.
 */
static int cg_substore(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	dt_node *root = n->n_c;
	int rv = dt_cg_node(ctx, b, n->n_b);
	int rorig = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_var_load(ctx, b, root, rorig);
	int rsz = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_set_int(ctx, b, n, root->n_type->ty_size, rsz);
	int rcp = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_ALLOCS, rsz, rcp));
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_COPYS, rorig, rsz, rcp));
	dt_cg_reg_free(b, rsz);
	dt_cg_reg_free(b, rorig);
	int ra = cg_subaddr(ctx, b, n->n_a, root, rcp);
	if (n->n_op != DT_T_ASGN) {
		int rold = dt_cg_reg_alloc(ctx, b, n);
		dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, ra, rold));
		dt_cg_load(ctx, b, n->n_a->n_type, rold, false);
		dt_cg_bitfield_extend(ctx, b, n, n->n_a->n_type, rold);
		dt_cg_arith(ctx, b, n, dt_tok_compound_op(n->n_op), rold, rv);
		dt_cg_reg_free(b, rv);
		rv = rold;
	}
	store(ctx, b, n, n->n_a->n_type, rv, ra);
	dt_cg_reg_free(b, ra);
	var_store(ctx, b, root, rcp);
	dt_cg_reg_free(b, rcp);
	return rv;
}

/*
 * *(string *)ra = rv: the string and its NUL, never more than strsize
 * bytes (its bounded strlen + 1), so no byte past the source string is read.
 */
static void store_string(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int rv, int ra)
{
	dt_cg_emit(ctx, b, DIF_INSTR_PUSHTR(DIF_TT_STR, 0, rv));
	int rl = dt_cg_reg_alloc(ctx, b, where);
	dt_cg_emit(ctx, b, DIF_INSTR_CALL(DIF_SUBR_STRLEN, rl));
	add_const(ctx, b, where, rl, 1);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_COPYS, rv, rl, ra));
	dt_cg_reg_free(b, rl);
}

/*
 * *p = v, p->m op= v, p[i] = v: a store through an address.  The compiler
 * accepts any; DIF lets it reach only allocated scratch (alloca()) and
 * faults "invalid address" anywhere else, as DTrace does.
 */
static DT_NOINLINE int cg_memstore(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	const dt_type *t = n->n_a->n_type;
	int rv = dt_cg_node(ctx, b, n->n_b);
	int ra = dt_cg_addr(ctx, b, n->n_a);
	if (n->n_op != DT_T_ASGN) {
		int rold = dt_cg_reg_alloc(ctx, b, n);
		dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, ra, rold));
		dt_cg_load(ctx, b, t, rold, false);
		dt_cg_arith(ctx, b, n, dt_tok_compound_op(n->n_op), rold, rv);
		dt_cg_reg_free(b, rv);
		rv = rold;
	}
	if (dt_type_isstring(t))
		store_string(ctx, b, n, rv, ra);
	else
		store(ctx, b, n, t, rv, ra);
	dt_cg_reg_free(b, ra);
	if (dt_type_isint(t))
		dt_cg_extend(ctx, b, n, t, rv);	/* the value as stored */
	return rv;
}

/* ++*p, p->m--, p[i]++: load, add or subtract one (or the pointee), store. */
static DT_NOINLINE int cg_memincdec(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	const dt_type *t = n->n_a->n_type;
	int ra = dt_cg_addr(ctx, b, n->n_a);
	int r = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, ra, r));
	dt_cg_load(ctx, b, t, r, false);
	int nv = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_set_int(ctx, b, n, t->ty_kind == DT_TK_PTR ? t->ty_base->ty_size : 1,
	    nv);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(n->n_op == DT_T_INC ? DIF_OP_ADD :
	    DIF_OP_SUB, r, nv, nv));
	store(ctx, b, n, t, nv, ra);
	dt_cg_reg_free(b, ra);
	if (!n->n_post) {
		dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, nv, r));
		dt_cg_extend(ctx, b, n, t, r);
	}
	dt_cg_reg_free(b, nv);
	return r;
}

DT_NOINLINE int dt_cg_assign(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	if (n->n_flags & DT_NF_MEMSTORE)
		return cg_memstore(ctx, b, n);
	if (n->n_flags & DT_NF_SUBSTORE)
		return cg_substore(ctx, b, n);
	int rb = dt_cg_node(ctx, b, n->n_b);
	if (n->n_op != DT_T_ASGN) {
		int ra = dt_cg_reg_alloc(ctx, b, n);
		dt_cg_var_load(ctx, b, n->n_a, ra);
		dt_cg_arith(ctx, b, n, dt_tok_compound_op(n->n_op), ra, rb);
		dt_cg_reg_free(b, rb);
		rb = ra;
		/* an int holds what a C int would: truncate to its width */
		dt_cg_extend(ctx, b, n, n->n_a->n_type, rb);
	}
	var_store(ctx, b, n->n_a, rb);
	return rb;
}

DT_NOINLINE int dt_cg_incdec(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	if (n->n_flags & DT_NF_MEMSTORE)
		return cg_memincdec(ctx, b, n);
	int r = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_var_load(ctx, b, n->n_a, r);
	int one = dt_cg_reg_alloc(ctx, b, n);
	const dt_type *t = n->n_a->n_type;
	dt_cg_set_int(ctx, b, n, t->ty_kind == DT_TK_PTR ? t->ty_base->ty_size : 1,
	    one);
	unsigned op = n->n_op == DT_T_INC ? DIF_OP_ADD : DIF_OP_SUB;
	if (n->n_post) {
		int nv = dt_cg_reg_alloc(ctx, b, n);
		dt_cg_emit(ctx, b, DIF_INSTR_RRR(op, r, one, nv));
		dt_cg_extend(ctx, b, n, t, nv);	/* wraps at the variable's width */
		var_store(ctx, b, n->n_a, nv);
		dt_cg_reg_free(b, nv);
	} else {
		dt_cg_emit(ctx, b, DIF_INSTR_RRR(op, r, one, r));
		dt_cg_extend(ctx, b, n, t, r);
		var_store(ctx, b, n->n_a, r);
	}
	dt_cg_reg_free(b, one);
	return r;
}

/*
 * A string into a char array of size bytes (a translated member): its
 * characters and NUL, cut to the array (then without a NUL, as C's
 * strncpy leaves it).
 */
static void store_chars(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, uint32_t size,
                        int rv, int ra)
{
	dt_cg_emit(ctx, b, DIF_INSTR_PUSHTR(DIF_TT_STR, 0, rv));
	int rl = dt_cg_reg_alloc(ctx, b, where);
	dt_cg_emit(ctx, b, DIF_INSTR_CALL(DIF_SUBR_STRLEN, rl));
	add_const(ctx, b, where, rl, 1);
	int rs = dt_cg_reg_alloc(ctx, b, where);
	dt_cg_set_int(ctx, b, where, size, rs);
	uint32_t lok = dt_cg_label_new(ctx, b);
	dt_cg_emit(ctx, b, DIF_INSTR_CMP(DIF_OP_CMP, rl, rs));
	dt_cg_branch(ctx, b, DIF_OP_BLEU, lok);
	dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, rs, rl));
	dt_cg_label_here(b, lok);
	dt_cg_reg_free(b, rs);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_COPYS, rv, rl, ra));
	dt_cg_reg_free(b, rl);
}

/*
 * xlate<T>(e) as a value (dt_sema_ref.c's dt_cook_xlate): zeroed scratch
 * of T's size, each translated member stored at its offset; the register
 * holds the scratch's address (the struct, by reference, or T * itself).
 */
DT_NOINLINE int dt_cg_xlate(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	const dt_type *st = n->n_type->ty_kind == DT_TK_PTR ?
	    n->n_type->ty_base : n->n_type;
	int rp = dt_cg_reg_alloc(ctx, b, n);
	int rs = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_set_int(ctx, b, n, st->ty_size, rs);
	dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_ALLOCS, rs, rp));
	dt_cg_reg_free(b, rs);
	for (dt_node *w = n->n_args; w != NULL; w = w->n_next) {
		int rv = dt_cg_node(ctx, b, w->n_a);
		int ra = dt_cg_reg_alloc(ctx, b, w);
		dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, rp, ra));
		add_const(ctx, b, w, ra, (uint64_t)w->n_ival);
		if (dt_type_isstring(w->n_type))
			store_string(ctx, b, w, rv, ra);
		else if (w->n_type->ty_kind == DT_TK_ARRAY &&
		    dt_type_isstrcompat(w->n_a->n_type))
			store_chars(ctx, b, w, w->n_type->ty_size, rv, ra);
		else
			store(ctx, b, w, w->n_type, rv, ra);
		dt_cg_reg_free(b, ra);
		dt_cg_reg_free(b, rv);
	}
	return rp;
}
