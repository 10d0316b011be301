/*
 * dlang/dt_cg.c: DIF code generation.
 *
 * dt_cg_expr() turns one cooked expression into one DIFO whose last
 * instruction is "ret %rN" with the expression's value.  The generator is
 * a single recursive walk: each node's code leaves its value in a register
 * it allocates; operands' registers are released as soon as they are
 * consumed.  Registers are %r1..%r7 (%r0 reads 0).  Where the usual order
 * would run out of them, side-effect-free operands are reordered to need
 * fewer (the hungrier operand first, tuple elements evaluated as they are
 * pushed: "register pressure" below), and otherwise a binary operator's
 * held left operand is spilled to a hidden clause-local slot while its
 * right operand is evaluated; running out even so (a tuple with a side
 * effect in its keys) is the compile error D_NOREG, as in DTrace.
 *
 * Conventions:
 *   - integer constants come from the integer table (setx), strings from
 *     the string table (sets); both tables are deduplicated;
 *   - strings and structs are by reference: the register holds an address;
 *   - comparisons and logical operators produce 0 or 1 through forward
 *     branches: "cmp; b<cc> Ltrue; mov %r0, rd; ba Lend; Ltrue: setx 1;
 *     Lend:";
 *   - associative-array keys and subroutine arguments are evaluated into
 *     registers first, then pushed on the tuple stack (pushtv for values,
 *     pushtr for strings), so nested calls never interleave their tuples;
 *   - labels are numbered while emitting and patched at the end (all
 *     branches are forward);
 *   - a chain of left-associative operators is generated in a loop from
 *     its innermost left operand (cg_chain): one register carries the
 *     running value, and the chain's length costs no stack;
 *   - string constants are stored cut to strsize - 1 characters.
 * Every finished DIFO is run through dif_validate(); a failure is an
 * internal compiler error (D_CG_EXPR), never a DIFO handed out.
 *
 * Order: buffer and tables, registers and labels, loads and stores,
 * variables, operators, calls, the dispatcher, the DIFO.
 *
 * Tests: tests/dlang/ (exact DIF); tests/d (every runtime program); make
 *        dlang-fuzz
 */
#include "dlang/dt.h"


typedef struct dt_cgbuf {
	dif_instr_t *cb_insns;
	uint32_t cb_n, cb_cap;
	uint64_t *cb_ints;
	uint32_t cb_nints, cb_capi;
	char *cb_strs;
	uint32_t cb_strlen, cb_caps;
	dif_var_t *cb_vars;
	uint32_t cb_nvars, cb_capv;
	uint32_t *cb_labels;
	uint32_t cb_nlabels, cb_capl;
	uint8_t cb_regs;		/* bit i: %ri in use */
	uint32_t cb_spills;		/* spill slots in use (register pressure) */
} dt_cgbuf;

static int cg(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);

/* ---- buffer and tables ---- */

static void emit(dt_ctx *ctx, dt_cgbuf *b, dif_instr_t in)
{
	if (b->cb_n >= 0x100000)
		dt_error_at(ctx, ctx->c_line, 1, "D_CG_EXPR", "expression is "
		    "too large to compile");
	b->cb_insns = dt_grow(ctx, b->cb_insns, b->cb_n, &b->cb_cap,
	    sizeof(dif_instr_t));
	b->cb_insns[b->cb_n++] = in;
}

static uint32_t int_index(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, uint64_t v)
{
	for (uint32_t i = 0; i < b->cb_nints; i++)
		if (b->cb_ints[i] == v)
			return i;
	if (b->cb_nints >= DIF_MAX_INTTAB)
		dt_error_node(ctx, where, "D_CG_EXPR", "too many integer "
		    "constants in one expression");
	b->cb_ints = dt_grow(ctx, b->cb_ints, b->cb_nints, &b->cb_capi,
	    sizeof(uint64_t));
	b->cb_ints[b->cb_nints] = v;
	return b->cb_nints++;
}

static uint32_t str_offset(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const char *s,
                           uint32_t len)
{
	for (uint32_t off = 0; off + len < b->cb_strlen; ) {
		uint32_t l = (uint32_t)dt_strlen(b->cb_strs + off);
		if (l >= len && __builtin_memcmp(b->cb_strs + off + l - len, s,
		    len) == 0 && b->cb_strs[off + l] == '\0')
			return off + l - len;
		off += l + 1;
	}
	if (b->cb_strlen + len + 1 > DIF_MAX_STRTAB - 1)
		dt_error_node(ctx, where, "D_CG_EXPR", "too many string "
		    "constants in one expression");
	uint32_t need = b->cb_strlen + len + 1;
	if (need > b->cb_caps) {
		uint32_t nc = b->cb_caps == 0 ? 16 : b->cb_caps;
		while (nc < need)
			nc *= 2;
		char *p = dt_alloc(ctx, nc);
		if (b->cb_strs != NULL)
			__builtin_memcpy(p, b->cb_strs, b->cb_strlen);
		b->cb_strs = p;
		b->cb_caps = nc;
	}
	uint32_t off = b->cb_strlen;
	__builtin_memcpy(b->cb_strs + off, s, len);
	b->cb_strs[off + len] = '\0';
	b->cb_strlen = need;
	return off;
}

/*
 * A string constant's length in the string table: every string value is
 * cut to strsize - 1 characters when used, so a longer constant (a
 * 100,000-character literal) is stored cut, as DTrace does.
 */
static uint32_t str_cut(dt_ctx *ctx, uint32_t len)
{
	uint32_t max = ctx->c_prog->dp_strsize - 1;
	return len > max ? max : len;
}

/* ---- registers and labels ---- */

static int reg_alloc(dt_ctx *ctx, dt_cgbuf *b, dt_node *where)
{
	for (int r = 1; r < DIF_NREGS; r++) {
		if (!(b->cb_regs & (1u << r))) {
			b->cb_regs |= (uint8_t)(1u << r);
			return r;
		}
	}
	dt_error_node(ctx, where, "D_NOREG", "Insufficient registers to "
	    "generate code");
}

static void reg_free(dt_cgbuf *b, int r)
{
	if (r > 0)
		b->cb_regs &= (uint8_t)~(1u << r);
}

static uint32_t label_new(dt_ctx *ctx, dt_cgbuf *b)
{
	b->cb_labels = dt_grow(ctx, b->cb_labels, b->cb_nlabels, &b->cb_capl,
	    sizeof(uint32_t));
	b->cb_labels[b->cb_nlabels] = UINT32_MAX;
	return b->cb_nlabels++;
}

static void label_here(dt_cgbuf *b, uint32_t l)
{
	b->cb_labels[l] = b->cb_n;
}

static void branch(dt_ctx *ctx, dt_cgbuf *b, unsigned op, uint32_t l)
{
	emit(ctx, b, DIF_INSTR_BRANCH(op, l));
}

static void set_int(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, uint64_t v, int rd)
{
	emit(ctx, b, DIF_INSTR_SETX(int_index(ctx, b, where, v), rd));
}

/* ---- loads ---- */

static bool by_ref(const dt_type *t)
{
	return (t->ty_kind == DT_TK_STRUCT || t->ty_kind == DT_TK_UNION ||
	    t->ty_kind == DT_TK_ARRAY || t->ty_kind == DT_TK_STRING ||
	    (t->ty_kind == DT_TK_FLOAT && t->ty_size > 8));
}

/* rd = *(type *)rd, unless the type is by reference (keep the address). */
static void load(dt_ctx *ctx, dt_cgbuf *b, const dt_type *t, int rd, bool user)
{
	unsigned op;
	if (by_ref(t))
		return;
	uint32_t sz = t->ty_kind == DT_TK_PTR ? 8 : t->ty_size;
	bool s = t->ty_signed && t->ty_kind != DT_TK_PTR;
	switch (sz) {
	case 1: op = s ? DIF_OP_LDSB : DIF_OP_LDUB; break;
	case 2: op = s ? DIF_OP_LDSH : DIF_OP_LDUH; break;
	case 4: op = s ? DIF_OP_LDSW : DIF_OP_LDUW; break;
	default: op = DIF_OP_LDX; break;
	}
	if (user)
		op += DIF_OP_ULDSB - DIF_OP_LDSB;
	emit(ctx, b, DIF_INSTR_LOAD(op, rd, rd));
}

/* Sign- or zero-extend rd from the width of integer type t. */
static void extend(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const dt_type *t, int rd)
{
	uint32_t sz = t->ty_kind == DT_TK_PTR ? 8 : t->ty_size;
	if (sz >= 8 || sz == 0 || !dt_type_isint(t))
		return;
	int rs = reg_alloc(ctx, b, where);
	set_int(ctx, b, where, 64 - sz * 8, rs);
	emit(ctx, b, DIF_INSTR_RRR(DIF_OP_SHL, rd, rs, rd));
	emit(ctx, b, DIF_INSTR_RRR(t->ty_signed ? DIF_OP_SRA : DIF_OP_SRL, rd,
	    rs, rd));
	reg_free(b, rs);
}

/* ---- register pressure ---- */

/*
 * DIF has seven registers and no stack, so a deep expression could run
 * out of them.  Before giving up with D_NOREG, the generator orders its
 * work to need fewer (Sethi and Ullman's labelling): of a binary
 * operator's two operands it evaluates the hungrier one first, and a
 * tuple's keys or arguments that use no tuple themselves are evaluated
 * just before each is pushed instead of all being held in registers.  It
 * does so only when the usual order would not fit in the registers left
 * (so the DIF of every program that fits is unchanged) and only when the
 * operands have no side effects (no assignment, ++ or --), so the
 * reordering cannot be seen.  need() estimates the registers a subtree
 * takes under that rule; it walks left chains in a loop, like cg_chain.
 */
typedef struct dt_need {
	int nd_regs;		/* registers the subtree needs */
	bool nd_impure;		/* it assigns, ++ or -- somewhere */
	bool nd_tuple;		/* it pushes a tuple (array element, call) */
} dt_need;

static void need_node(const dt_node *n, dt_need *o);

static int need_pair(int a, int c)
{
	return a == c ? a + 1 : a > c ? a : c;
}

/* The need of a tuple pushed key by key: its hungriest key, one more for each held. */
static int need_args(const dt_node *first, dt_need *o)
{
	int worst = 0, i = 0;
	for (const dt_node *a = first; a != NULL; a = a->n_next, i++) {
		dt_need k = { 0, false, false };
		need_node(a, &k);
		o->nd_impure |= k.nd_impure;
		if (k.nd_regs + (k.nd_tuple ? i : 0) > worst)
			worst = k.nd_regs + (k.nd_tuple ? i : 0);
	}
	o->nd_tuple = true;
	return worst;
}

static void need_node(const dt_node *n, dt_need *o)
{
	int r = 1;
	while (n->n_kind == DT_N_OP2 && dt_op2_chains(n)) {	/* left chains: a loop */
		dt_need rb = { 0, false, false };
		need_node(n->n_b, &rb);
		o->nd_impure |= rb.nd_impure;
		o->nd_tuple |= rb.nd_tuple;
		r = r > rb.nd_regs + 1 ? r : rb.nd_regs + 1;
		n = n->n_a;
	}
	dt_need a = { 0, false, false };
	switch (n->n_kind) {
	case DT_N_INT: case DT_N_STR: case DT_N_SYM: case DT_N_SIZEOF:
	case DT_N_OFFSETOF:
		a.nd_regs = 1;
		break;
	case DT_N_VAR: case DT_N_SELF: case DT_N_THIS:
		a.nd_regs = n->n_ident != NULL && n->n_ident->id_kind == DT_IDK_ARRAY ?
		    need_args(n->n_args, &a) + 1 : 1;
		break;
	case DT_N_OP1:
		need_node(n->n_a, &a);
		a.nd_regs += 1;
		if (n->n_op == DT_T_INC || n->n_op == DT_T_DEC) {
			a.nd_impure = true;	/* value, step, new value, extend's */
			a.nd_regs = a.nd_regs > 4 ? a.nd_regs : 4;
		}
		break;
	case DT_N_OP2: {	/* an assignment (a chain was walked above) */
		dt_need c = { 0, false, false };
		need_node(n->n_a, &a);
		need_node(n->n_b, &c);
		a.nd_regs = need_pair(a.nd_regs, c.nd_regs) + 1;
		a.nd_impure = true;
		a.nd_tuple |= c.nd_tuple;
		break;
	}
	case DT_N_OP3: {
		dt_need c = { 0, false, false }, d = { 0, false, false };
		need_node(n->n_a, &a);
		need_node(n->n_b, &c);
		need_node(n->n_c, &d);
		a.nd_regs = need_pair(need_pair(a.nd_regs, c.nd_regs), d.nd_regs);
		a.nd_impure |= c.nd_impure || d.nd_impure;
		a.nd_tuple |= c.nd_tuple || d.nd_tuple;
		break;
	}
	case DT_N_CALL:
		a.nd_regs = need_args(n->n_args, &a) + 1;
		break;
	case DT_N_INDEX: {
		dt_need c = { 0, false, false };
		need_node(n->n_a, &a);
		if (n->n_args != NULL)
			a.nd_regs = need_pair(a.nd_regs, need_args(n->n_args, &c));
		a.nd_impure |= c.nd_impure;
		a.nd_tuple |= c.nd_tuple && n->n_ival != -1 && n->n_ival != -2;
		a.nd_regs += 1;
		break;
	}
	case DT_N_MEMBER: case DT_N_CAST: case DT_N_STRINGOF:
		need_node(n->n_a, &a);
		a.nd_regs += 1;
		break;
	default:		/* anything else: keep the usual order */
		a.nd_regs = DIF_NREGS;
		a.nd_impure = true;
		break;
	}
	o->nd_regs = r > a.nd_regs ? r : a.nd_regs;
	o->nd_impure |= a.nd_impure;
	o->nd_tuple |= a.nd_tuple;
}

static dt_need need(const dt_node *n)
{
	dt_need o = { 0, false, false };
	need_node(n, &o);
	return o;
}

/* Registers not in use. */
static int regs_free(const dt_cgbuf *b)
{
	int k = 0;
	for (int r = 1; r < DIF_NREGS; r++)
		k += !(b->cb_regs & (1u << r));
	return k;
}

/* ---- variables ---- */

static dif_type_t dif_type_of(dt_ctx *ctx, const dt_type *t)
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
static void var_ref(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, dt_ident *id, bool store)
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
	v->dv_name = str_offset(ctx, b, where, id->id_name,
	    (uint32_t)dt_strlen(id->id_name));
	v->dv_id = id->id_id;
	v->dv_scope = id->id_scope;
	v->dv_kind = kind;
	v->dv_flags = store ? DIF_DVF_WRITTEN : DIF_DVF_READ;
	v->dv_type = dif_type_of(ctx, id->id_type);
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
	int rs = reg_alloc(ctx, b, a);
	set_int(ctx, b, a, a->n_type->ty_size, rs);
	emit(ctx, b, DIF_INSTR_PUSHTR(DIF_TT_MEM, rs, rv));
	reg_free(b, rs);
}

static void push_tuple(dt_ctx *ctx, dt_cgbuf *b, dt_node *first)
{
	int regs[DT_MAXARGS];
	uint32_t n = 0;
	int held = 0, worst = 0;
	bool impure = false;
	for (dt_node *a = first; a != NULL && n < DT_MAXARGS; a = a->n_next, n++) {
		dt_need k = need(a);
		impure |= k.nd_impure;
		regs[n] = k.nd_tuple ? 0 : -1;		/* 0: evaluate it first */
		if (held + k.nd_regs > worst)
			worst = held + k.nd_regs;
		held++;
	}
	bool lazy = !impure && worst > regs_free(b);
	n = 0;
	for (dt_node *a = first; a != NULL && n < DT_MAXARGS; a = a->n_next, n++)
		if (!lazy || regs[n] == 0)
			regs[n] = cg(ctx, b, a);
	if (n > DIF_TUPLE_MAX)
		dt_error_node(ctx, first, "D_CG_EXPR", "too many tuple "
		    "elements (limit %d)", DIF_TUPLE_MAX);
	uint32_t i = 0;
	for (dt_node *a = first; a != NULL && i < n; a = a->n_next, i++) {
		if (regs[i] < 0)
			regs[i] = cg(ctx, b, a);
		if (dt_type_isstring(a->n_type))
			emit(ctx, b, DIF_INSTR_PUSHTR(DIF_TT_STR, 0, regs[i]));
		else if (a->n_type->ty_kind == DT_TK_STRUCT ||
		    a->n_type->ty_kind == DT_TK_UNION)
			push_mem(ctx, b, a, regs[i]);
		else
			emit(ctx, b, DIF_INSTR_PUSHTV(regs[i]));
		reg_free(b, regs[i]);
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
static void var_load(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, int rd)
{
	dt_ident *id = n->n_ident;
	if (id->id_kind == DT_IDK_BUILTIN) {
		emit(ctx, b, DIF_INSTR_VLOAD(DIF_OP_LDGS, id->id_id, rd));
		return;
	}
	if (id->id_kind == DT_IDK_ARRAY)
		push_tuple(ctx, b, n->n_args);
	var_ref(ctx, b, n, id, false);
	emit(ctx, b, DIF_INSTR_VLOAD(var_op(id, false), id->id_id, rd));
	if (by_ref(id->id_type) && !dt_type_isstring(id->id_type)) {
		/* an unset struct/array reads as zeroed scratch, not NULL */
		uint32_t lok = label_new(ctx, b);
		emit(ctx, b, DIF_INSTR_TST(rd));
		branch(ctx, b, DIF_OP_BNE, lok);
		int rs = reg_alloc(ctx, b, n);
		set_int(ctx, b, n, id->id_type->ty_size, rs);
		emit(ctx, b, DIF_INSTR_RR(DIF_OP_ALLOCS, rs, rd));
		reg_free(b, rs);
		label_here(b, lok);
	}
}

static void var_store(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, int rs)
{
	dt_ident *id = n->n_ident;
	if (id->id_kind == DT_IDK_ARRAY)
		push_tuple(ctx, b, n->n_args);
	var_ref(ctx, b, n, id, true);
	emit(ctx, b, DIF_INSTR_VSTORE(var_op(id, true), id->id_id, rs));
}

/*
 * A bit-field (dt_bitfield.c) lives in the low ty_bits bits of its bytes:
 * after a load keep them, sign-extended if the type is signed; before a
 * store cut the value to them.
 */
static void bitfield_extend(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const dt_type *t,
                            int rd)
{
	if (t->ty_bits == 0)
		return;
	int rs = reg_alloc(ctx, b, where);
	set_int(ctx, b, where, 64 - t->ty_bits - t->ty_bitoff, rs);
	emit(ctx, b, DIF_INSTR_RRR(DIF_OP_SHL, rd, rs, rd));
	if (t->ty_bitoff != 0)		/* a kernel bit-field (dt_ctf.c) */
		set_int(ctx, b, where, 64 - t->ty_bits, rs);
	emit(ctx, b, DIF_INSTR_RRR(t->ty_signed ? DIF_OP_SRA : DIF_OP_SRL, rd,
	    rs, rd));
	reg_free(b, rs);
}

static void bitfield_cut(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const dt_type *t,
                         int rv)
{
	if (t->ty_bits == 0 || t->ty_bits >= 64)
		return;
	int rs = reg_alloc(ctx, b, where);
	set_int(ctx, b, where, ((uint64_t)1 << t->ty_bits) - 1, rs);
	emit(ctx, b, DIF_INSTR_RRR(DIF_OP_AND, rv, rs, rv));
	reg_free(b, rs);
}

/* ---- addresses ---- */

static int cg_addr(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);
static void bounds_check(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int ri,
    uint32_t nelem);

static void add_const(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int rd, uint64_t v)
{
	if (v == 0)
		return;
	int rs = reg_alloc(ctx, b, where);
	set_int(ctx, b, where, v, rs);
	emit(ctx, b, DIF_INSTR_RRR(DIF_OP_ADD, rd, rs, rd));
	reg_free(b, rs);
}

static void scale(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int r, uint32_t size)
{
	if (size <= 1)
		return;
	int rs = reg_alloc(ctx, b, where);
	set_int(ctx, b, where, size, rs);
	emit(ctx, b, DIF_INSTR_RRR(DIF_OP_MUL, r, rs, r));
	reg_free(b, rs);
}

/* The address of an lvalue in memory: *p, p->m, s.m, p[i]. */
static DT_NOINLINE int cg_addr(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	int r;
	switch (n->n_kind) {
	case DT_N_OP1:		/* *p */
		return cg(ctx, b, n->n_a);
	case DT_N_MEMBER:
		r = n->n_op == DT_T_ARROW ? cg(ctx, b, n->n_a) :
		    cg_addr(ctx, b, n->n_a);
		add_const(ctx, b, n, r, (uint64_t)n->n_ival);
		return r;
	case DT_N_INDEX: {	/* p[i] */
		if (n->n_ival != -2)	/* an associative array's struct element */
			return cg(ctx, b, n);
		r = n->n_a->n_type->ty_kind == DT_TK_ARRAY ?
		    cg_addr(ctx, b, n->n_a) : cg(ctx, b, n->n_a);
		int ri = cg(ctx, b, n->n_args);
		if (n->n_a->n_type->ty_kind == DT_TK_ARRAY &&
		    !(n->n_args->n_flags & DT_NF_CONST))
			bounds_check(ctx, b, n, ri, n->n_a->n_type->ty_nelem);
		scale(ctx, b, n, ri, n->n_type->ty_size);
		emit(ctx, b, DIF_INSTR_RRR(DIF_OP_ADD, r, ri, r));
		reg_free(b, ri);
		return r;
	}
	default:
		/* a by-reference value is its own address */
		return cg(ctx, b, n);
	}
}

/* ---- operators ---- */

/* rd = 1 if the condition codes satisfy op, else 0. */
static void cc_to_bool(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, unsigned op, int rd)
{
	uint32_t lt = label_new(ctx, b), le = label_new(ctx, b);
	branch(ctx, b, op, lt);
	emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, 0, rd));
	branch(ctx, b, DIF_OP_BA, le);
	label_here(b, lt);
	set_int(ctx, b, where, 1, rd);
	label_here(b, le);
}

static bool op_signed(const dt_node *n)
{
	const dt_type *a = n->n_a->n_type, *c = n->n_b->n_type;
	bool sa = a->ty_kind != DT_TK_PTR && (a->ty_signed || a->ty_size < 4);
	bool sb = c->ty_kind != DT_TK_PTR && (c->ty_signed || c->ty_size < 4);
	if (a->ty_size == 8 && !sa)
		return false;
	if (c->ty_size == 8 && !sb)
		return false;
	return (sa && sb) || (a->ty_size < c->ty_size ? sb : c->ty_size <
	    a->ty_size ? sa : false);
}

/* ---- conditions as jumps ---- */

/*
 * A condition (a comparison, && || !, or any value tested against 0) is
 * generated as jumping code: cg_cond(n, when, l) branches to l when n's
 * truth is `when` and falls through otherwise, so that `a > 100 && b != 0`
 * is two compare-and-branch pairs and no 0/1 values in between.  A value
 * is made only where one is needed (cg_bool), and a whole predicate ends
 * in two rets (dt_cg_expr).
 */
static void cg_cond(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, bool when, uint32_t l);

static bool is_rel(const dt_node *n)
{
	return (n->n_kind == DT_N_OP2 && (n->n_op == DT_T_LT ||
	    n->n_op == DT_T_LE || n->n_op == DT_T_GT || n->n_op == DT_T_GE ||
	    n->n_op == DT_T_EQ || n->n_op == DT_T_NE));
}

/* Is n a condition that cg_cond turns into branches only? */
static bool is_cond(const dt_node *n)
{
	if (is_rel(n))
		return true;
	if (n->n_kind == DT_N_OP2)
		return n->n_op == DT_T_LAND || n->n_op == DT_T_LOR;
	return n->n_kind == DT_N_OP1 && n->n_op == DT_T_LNEG;
}

/* The branch taken when the condition codes do NOT satisfy op. */
static unsigned branch_invert(unsigned op)
{
	switch (op) {
	case DIF_OP_BE: return (DIF_OP_BNE);
	case DIF_OP_BNE: return (DIF_OP_BE);
	case DIF_OP_BL: return (DIF_OP_BGE);
	case DIF_OP_BGE: return (DIF_OP_BL);
	case DIF_OP_BLU: return (DIF_OP_BGEU);
	case DIF_OP_BGEU: return (DIF_OP_BLU);
	case DIF_OP_BLE: return (DIF_OP_BG);
	case DIF_OP_BG: return (DIF_OP_BLE);
	case DIF_OP_BLEU: return (DIF_OP_BGU);
	default: return (DIF_OP_BLEU);	/* BGU */
	}
}

static bool is_zero(const dt_node *n)
{
	return n->n_kind == DT_N_INT && n->n_ival == 0;
}

/* Compare n's operands (tst when the right one is the integer 0); the branch for n's truth. */
static unsigned cg_compare(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	bool str = dt_type_isstring(n->n_a->n_type);
	bool s = !str && op_signed(n);
	int ra = cg(ctx, b, n->n_a);
	if (!str && is_zero(n->n_b)) {
		emit(ctx, b, DIF_INSTR_TST(ra));	/* cmp ra, 0 exactly */
	} else {
		int rb = cg(ctx, b, n->n_b);
		emit(ctx, b, DIF_INSTR_CMP(str ? DIF_OP_SCMP : DIF_OP_CMP,
		    ra, rb));
		reg_free(b, rb);
	}
	reg_free(b, ra);
	switch (n->n_op) {
	case DT_T_EQ: return (DIF_OP_BE);
	case DT_T_NE: return (DIF_OP_BNE);
	case DT_T_LT: return (s || str ? DIF_OP_BL : DIF_OP_BLU);
	case DT_T_LE: return (s || str ? DIF_OP_BLE : DIF_OP_BLEU);
	case DT_T_GT: return (s || str ? DIF_OP_BG : DIF_OP_BGU);
	default: return (s || str ? DIF_OP_BGE : DIF_OP_BGEU);
	}
}

/*
 * a && b, a || b: short-circuit, each side a condition of its own.  A chain
 * of the same operator (a && b && c, nested on the left) is walked in a
 * loop, so its length costs no stack: every operand but the last jumps on
 * the truth that decides the whole chain, the last one jumps as asked.
 */
static void cg_cond_logical(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, bool when, uint32_t l)
{
	bool and = n->n_op == DT_T_LAND;
	uint32_t k = 1;
	for (dt_node *m = n->n_a; m->n_kind == DT_N_OP2 && m->n_op == n->n_op;
	    m = m->n_a)
		k++;
	dt_node **spine = dt_alloc(ctx, (k + 1) * sizeof(*spine));
	spine[0] = n;				/* spine[k]: the leftmost operand */
	for (uint32_t i = 1; i <= k; i++)
		spine[i] = spine[i - 1]->n_a;
	/* (a && b) false, (a || b) true: any operand decides, straight to l. */
	bool direct = and != when;
	uint32_t lskip = direct ? l : label_new(ctx, b);
	cg_cond(ctx, b, spine[k], direct ? when : !when, lskip);
	for (uint32_t i = k; i >= 2; i--)
		cg_cond(ctx, b, spine[i - 1]->n_b, direct ? when : !when, lskip);
	cg_cond(ctx, b, n->n_b, when, l);
	if (!direct)
		label_here(b, lskip);
}

static void cg_cond(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, bool when, uint32_t l)
{
	if (is_rel(n)) {
		unsigned op = cg_compare(ctx, b, n);
		branch(ctx, b, when ? op : branch_invert(op), l);
	} else if (n->n_kind == DT_N_OP2 && (n->n_op == DT_T_LAND ||
	    n->n_op == DT_T_LOR)) {
		cg_cond_logical(ctx, b, n, when, l);
	} else if (n->n_kind == DT_N_OP1 && n->n_op == DT_T_LNEG) {
		cg_cond(ctx, b, n->n_a, !when, l);
	} else {
		int r = cg(ctx, b, n);
		emit(ctx, b, DIF_INSTR_TST(r));
		reg_free(b, r);
		branch(ctx, b, when ? DIF_OP_BNE : DIF_OP_BE, l);
	}
}

/* A condition's value, 0 or 1, in a new register. */
static int cg_bool(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	uint32_t lfalse = label_new(ctx, b), lend = label_new(ctx, b);
	cg_cond(ctx, b, n, false, lfalse);
	int rd = reg_alloc(ctx, b, n);
	set_int(ctx, b, n, 1, rd);
	branch(ctx, b, DIF_OP_BA, lend);
	label_here(b, lfalse);
	emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, 0, rd));
	label_here(b, lend);
	return rd;
}

static DT_NOINLINE int cg_rel(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	return cg_bool(ctx, b, n);
}

/* ^^ evaluates both sides (&& and || are conditions: cg_bool).  ra: n_a's value. */
static DT_NOINLINE int cg_logical(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, int ra)
{
	int rb = cg(ctx, b, n->n_b);
	emit(ctx, b, DIF_INSTR_TST(ra));
	cc_to_bool(ctx, b, n, DIF_OP_BNE, ra);
	emit(ctx, b, DIF_INSTR_TST(rb));
	cc_to_bool(ctx, b, n, DIF_OP_BNE, rb);
	emit(ctx, b, DIF_INSTR_RRR(DIF_OP_XOR, ra, rb, ra));
	reg_free(b, rb);
	return ra;
}

static unsigned arith_op(dt_tokkind op, bool s)
{
	switch (op) {
	case DT_T_PLUS: return (DIF_OP_ADD);
	case DT_T_MINUS: return (DIF_OP_SUB);
	case DT_T_STAR: return (DIF_OP_MUL);
	case DT_T_SLASH: return (s ? DIF_OP_SDIV : DIF_OP_UDIV);
	case DT_T_MOD: return (s ? DIF_OP_SREM : DIF_OP_UREM);
	case DT_T_BAND: return (DIF_OP_AND);
	case DT_T_BOR: return (DIF_OP_OR);
	case DT_T_XOR: return (DIF_OP_XOR);
	case DT_T_LSH: return (DIF_OP_SHL);
	default: return (s ? DIF_OP_SRA : DIF_OP_SRL);
	}
}

/* ra = ra op rb for node n's operand types (pointer arithmetic scales). */
static void arith(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, dt_tokkind op, int ra, int rb)
{
	const dt_type *ta = n->n_a->n_type, *tb = n->n_b->n_type;
	if (ta->ty_kind == DT_TK_PTR && tb->ty_kind == DT_TK_PTR) {
		emit(ctx, b, DIF_INSTR_RRR(DIF_OP_SUB, ra, rb, ra));
		if (ta->ty_base->ty_size > 1) {
			set_int(ctx, b, n, ta->ty_base->ty_size, rb);
			emit(ctx, b, DIF_INSTR_RRR(DIF_OP_SDIV, ra, rb, ra));
		}
		return;
	}
	if (ta->ty_kind == DT_TK_PTR)
		scale(ctx, b, n, rb, ta->ty_base->ty_size);
	else if (tb->ty_kind == DT_TK_PTR)
		scale(ctx, b, n, ra, tb->ty_base->ty_size);
	bool s = n->n_type->ty_signed;
	if (op == DT_T_RSH)
		s = n->n_a->n_type->ty_signed || n->n_a->n_type->ty_size < 4;
	emit(ctx, b, DIF_INSTR_RRR(arith_op(op, s), ra, rb, ra));
}

/* Fault (BADADDR at 0) unless 0 <= ri < nelem: array bounds at run time. */
static void bounds_check(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int ri,
                         uint32_t nelem)
{
	uint32_t lok = label_new(ctx, b);
	int rn = reg_alloc(ctx, b, where);
	set_int(ctx, b, where, nelem, rn);
	emit(ctx, b, DIF_INSTR_CMP(DIF_OP_CMP, ri, rn));
	branch(ctx, b, DIF_OP_BLU, lok);
	emit(ctx, b, DIF_INSTR_LOAD(DIF_OP_LDX, 0, rn));
	label_here(b, lok);
	reg_free(b, rn);
}

/* The address of l inside a copy of its root variable held at rbase. */
static int cg_subaddr(dt_ctx *ctx, dt_cgbuf *b, dt_node *l, dt_node *root, int rbase)
{
	int r;
	if (l == root) {
		r = reg_alloc(ctx, b, l);
		emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, rbase, r));
		return r;
	}
	r = cg_subaddr(ctx, b, l->n_a, root, rbase);
	if (l->n_kind == DT_N_MEMBER) {
		add_const(ctx, b, l, r, (uint64_t)l->n_ival);
		return r;
	}
	int ri = cg(ctx, b, l->n_args);
	if (!(l->n_args->n_flags & DT_NF_CONST))
		bounds_check(ctx, b, l, ri, l->n_a->n_type->ty_nelem);
	scale(ctx, b, l, ri, l->n_type->ty_size);
	emit(ctx, b, DIF_INSTR_RRR(DIF_OP_ADD, r, ri, r));
	reg_free(b, ri);
	return r;
}

/* *(t *)ra = rv (by-reference values are copied). */
static void store(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const dt_type *t, int rv,
                  int ra)
{
	static const unsigned ops[] = { DIF_OP_STB, DIF_OP_STH, DIF_OP_STW,
	    DIF_OP_STW, DIF_OP_STX, DIF_OP_STX, DIF_OP_STX, DIF_OP_STX };
	if (by_ref(t)) {
		int rs = reg_alloc(ctx, b, where);
		set_int(ctx, b, where, t->ty_size, rs);
		emit(ctx, b, DIF_INSTR_RRR(DIF_OP_COPYS, rv, rs, ra));
		reg_free(b, rs);
		return;
	}
	uint32_t sz = t->ty_kind == DT_TK_PTR ? 8 : t->ty_size;
	bitfield_cut(ctx, b, where, t, rv);
	emit(ctx, b, DIF_INSTR_STORE(ops[(sz - 1) & 7], rv, ra));
}

/*
 * p.m = v, a[i] = v, p.a[i].m op= v on a struct/array D variable: copy the
 * variable into scratch, store into the copy, store the copy back (the
 * environment copies the bytes).  DIF stores only ever reach scratch.
 */
static int cg_substore(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	dt_node *root = n->n_c;
	int rv = cg(ctx, b, n->n_b);
	int rorig = reg_alloc(ctx, b, n);
	var_load(ctx, b, root, rorig);
	int rsz = reg_alloc(ctx, b, n);
	set_int(ctx, b, n, root->n_type->ty_size, rsz);
	int rcp = reg_alloc(ctx, b, n);
	emit(ctx, b, DIF_INSTR_RR(DIF_OP_ALLOCS, rsz, rcp));
	emit(ctx, b, DIF_INSTR_RRR(DIF_OP_COPYS, rorig, rsz, rcp));
	reg_free(b, rsz);
	reg_free(b, rorig);
	int ra = cg_subaddr(ctx, b, n->n_a, root, rcp);
	if (n->n_op != DT_T_ASGN) {
		int rold = reg_alloc(ctx, b, n);
		emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, ra, rold));
		load(ctx, b, n->n_a->n_type, rold, false);
		bitfield_extend(ctx, b, n, n->n_a->n_type, rold);
		arith(ctx, b, n, dt_tok_compound_op(n->n_op), rold, rv);
		reg_free(b, rv);
		rv = rold;
	}
	store(ctx, b, n, n->n_a->n_type, rv, ra);
	reg_free(b, ra);
	var_store(ctx, b, root, rcp);
	reg_free(b, rcp);
	return rv;
}

/*
 * *(string *)ra = rv: the string and its NUL, never more than strsize
 * bytes (its bounded strlen + 1), so no byte past the source string is read.
 */
static void store_string(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int rv, int ra)
{
	emit(ctx, b, DIF_INSTR_PUSHTR(DIF_TT_STR, 0, rv));
	int rl = reg_alloc(ctx, b, where);
	emit(ctx, b, DIF_INSTR_CALL(DIF_SUBR_STRLEN, rl));
	add_const(ctx, b, where, rl, 1);
	emit(ctx, b, DIF_INSTR_RRR(DIF_OP_COPYS, rv, rl, ra));
	reg_free(b, rl);
}

/*
 * *p = v, p->m op= v, p[i] = v: a store through an address.  The compiler
 * accepts any; DIF lets it reach only allocated scratch (alloca()) and
 * faults "invalid address" anywhere else, as DTrace does.
 */
static DT_NOINLINE int cg_memstore(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	const dt_type *t = n->n_a->n_type;
	int rv = cg(ctx, b, n->n_b);
	int ra = cg_addr(ctx, b, n->n_a);
	if (n->n_op != DT_T_ASGN) {
		int rold = reg_alloc(ctx, b, n);
		emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, ra, rold));
		load(ctx, b, t, rold, false);
		arith(ctx, b, n, dt_tok_compound_op(n->n_op), rold, rv);
		reg_free(b, rv);
		rv = rold;
	}
	if (dt_type_isstring(t))
		store_string(ctx, b, n, rv, ra);
	else
		store(ctx, b, n, t, rv, ra);
	reg_free(b, ra);
	if (dt_type_isint(t))
		extend(ctx, b, n, t, rv);	/* the value as stored */
	return rv;
}

/* ++*p, p->m--, p[i]++: load, add or subtract one (or the pointee), store. */
static DT_NOINLINE int cg_memincdec(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	const dt_type *t = n->n_a->n_type;
	int ra = cg_addr(ctx, b, n->n_a);
	int r = reg_alloc(ctx, b, n);
	emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, ra, r));
	load(ctx, b, t, r, false);
	int nv = reg_alloc(ctx, b, n);
	set_int(ctx, b, n, t->ty_kind == DT_TK_PTR ? t->ty_base->ty_size : 1,
	    nv);
	emit(ctx, b, DIF_INSTR_RRR(n->n_op == DT_T_INC ? DIF_OP_ADD :
	    DIF_OP_SUB, r, nv, nv));
	store(ctx, b, n, t, nv, ra);
	reg_free(b, ra);
	if (!n->n_post) {
		emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, nv, r));
		extend(ctx, b, n, t, r);
	}
	reg_free(b, nv);
	return r;
}

static DT_NOINLINE int cg_assign(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	if (n->n_flags & DT_NF_MEMSTORE)
		return cg_memstore(ctx, b, n);
	if (n->n_flags & DT_NF_SUBSTORE)
		return cg_substore(ctx, b, n);
	int rb = cg(ctx, b, n->n_b);
	if (n->n_op != DT_T_ASGN) {
		int ra = reg_alloc(ctx, b, n);
		var_load(ctx, b, n->n_a, ra);
		arith(ctx, b, n, dt_tok_compound_op(n->n_op), ra, rb);
		reg_free(b, rb);
		rb = ra;
		/* an int holds what a C int would: truncate to its width */
		extend(ctx, b, n, n->n_a->n_type, rb);
	}
	var_store(ctx, b, n->n_a, rb);
	return rb;
}

static DT_NOINLINE int cg_incdec(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	if (n->n_flags & DT_NF_MEMSTORE)
		return cg_memincdec(ctx, b, n);
	int r = reg_alloc(ctx, b, n);
	var_load(ctx, b, n->n_a, r);
	int one = reg_alloc(ctx, b, n);
	const dt_type *t = n->n_a->n_type;
	set_int(ctx, b, n, t->ty_kind == DT_TK_PTR ? t->ty_base->ty_size : 1,
	    one);
	unsigned op = n->n_op == DT_T_INC ? DIF_OP_ADD : DIF_OP_SUB;
	if (n->n_post) {
		int nv = reg_alloc(ctx, b, n);
		emit(ctx, b, DIF_INSTR_RRR(op, r, one, nv));
		extend(ctx, b, n, t, nv);	/* wraps at the variable's width */
		var_store(ctx, b, n->n_a, nv);
		reg_free(b, nv);
	} else {
		emit(ctx, b, DIF_INSTR_RRR(op, r, one, r));
		extend(ctx, b, n, t, r);
		var_store(ctx, b, n->n_a, r);
	}
	reg_free(b, one);
	return r;
}

static DT_NOINLINE int cg_op1(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	int r;
	switch (n->n_op) {
	case DT_T_INC: case DT_T_DEC:
		return cg_incdec(ctx, b, n);
	case DT_T_BAND:
		return cg_addr(ctx, b, n->n_a);
	case DT_T_LNEG:
		return cg_bool(ctx, b, n);
	case DT_T_STAR:
		r = cg(ctx, b, n->n_a);
		load(ctx, b, n->n_type, r, false);
		return r;
	default:
		break;
	}
	r = cg(ctx, b, n->n_a);
	switch (n->n_op) {
	case DT_T_MINUS:
		emit(ctx, b, DIF_INSTR_RRR(DIF_OP_SUB, 0, r, r));
		break;
	case DT_T_BNEG:
		emit(ctx, b, DIF_INSTR_RR(DIF_OP_NOT, r, r));
		break;
	default:	/* unary + */
		break;
	}
	return r;
}

/*
 * Spilling: when the right operand cannot be evaluated in the registers
 * left while the left one's value is held (and reordering was not allowed:
 * an operand has side effects), the held value goes to a clause-local slot
 * the program cannot name ("%spillN", one per nesting level of spills),
 * its register is freed for the right operand, and the value comes back
 * afterwards.  Clause-locals live for the firing, so the slot cannot be
 * disturbed in between.
 */
static dt_ident *spill_slot(dt_ctx *ctx, uint32_t level)
{
	char name[16] = "%spill";
	size_t k = 6;
	do {
		name[k++] = (char)('0' + level % 10);
		level /= 10;
	} while (level != 0 && k < sizeof(name) - 1);
	name[k] = '\0';
	return dt_sema_dvar_get(ctx, DIF_SCOPE_LOCAL, dt_strdup(ctx, name, k), ctx->c_t_long,
	    false);
}

/* rb = n's right operand with ra spilled around it; ra is reloaded (maybe another register). */
static int cg_spilled(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, int *ra)
{
	dt_ident *slot = spill_slot(ctx, b->cb_spills++);
	var_ref(ctx, b, n, slot, true);
	emit(ctx, b, DIF_INSTR_VSTORE(DIF_OP_STLS, slot->id_id, *ra));
	reg_free(b, *ra);
	int rb = cg(ctx, b, n->n_b);
	*ra = reg_alloc(ctx, b, n);
	var_ref(ctx, b, n, slot, false);
	emit(ctx, b, DIF_INSTR_VLOAD(DIF_OP_LDLS, slot->id_id, *ra));
	b->cb_spills--;
	return rb;
}

/* The rest of binary operator n, whose left operand's value is in ra. */
static int cg_op2_rest(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, int ra)
{
	switch (n->n_op) {
	case DT_T_COMMA:
		reg_free(b, ra);
		return cg(ctx, b, n->n_b);
	case DT_T_LXOR:			/* && ||: conditions, never in a chain */
		return cg_logical(ctx, b, n, ra);
	default: {
		int rb = need(n->n_b).nd_regs > regs_free(b) ? cg_spilled(ctx, b, n, &ra) :
		    cg(ctx, b, n->n_b);
		arith(ctx, b, n, n->n_op, ra, rb);
		reg_free(b, rb);
		return ra;
	}
	}
}

/*
 * A chain of left-associative operators (1 + 1 + ... + 1) is generated
 * from its innermost left operand outwards in a loop, so its length costs
 * no stack; each link needs only its right operand's registers.
 */
static DT_NOINLINE int cg_chain(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	if (n->n_op != DT_T_COMMA && n->n_op != DT_T_LXOR) {
		/* the right operand first when only that order fits (register pressure) */
		dt_need na = need(n->n_a), nb = need(n->n_b);
		int avail = regs_free(b);
		int usual = na.nd_regs > nb.nd_regs + 1 ? na.nd_regs : nb.nd_regs + 1;
		int swapped = nb.nd_regs > na.nd_regs + 1 ? nb.nd_regs : na.nd_regs + 1;
		if (!na.nd_impure && !nb.nd_impure && usual > avail && swapped < usual) {
			int rb = cg(ctx, b, n->n_b);
			int ra = cg(ctx, b, n->n_a);
			arith(ctx, b, n, n->n_op, ra, rb);
			reg_free(b, rb);
			return ra;
		}
	}
	uint32_t k = 0;
	for (dt_node *m = n; dt_op2_chains(m) && m->n_op != DT_T_LT &&
	    m->n_op != DT_T_LE && m->n_op != DT_T_GT && m->n_op != DT_T_GE &&
	    m->n_op != DT_T_EQ && m->n_op != DT_T_NE && m->n_op != DT_T_LAND &&
	    m->n_op != DT_T_LOR; m = m->n_a)
		k++;
	dt_node **spine = dt_alloc(ctx, k * sizeof(*spine));
	spine[0] = n;
	for (uint32_t i = 1; i < k; i++)
		spine[i] = spine[i - 1]->n_a;
	int r = cg(ctx, b, spine[k - 1]->n_a);
	for (uint32_t i = k; i >= 1; i--)
		r = cg_op2_rest(ctx, b, spine[i - 1], r);
	return r;
}

static DT_NOINLINE int cg_op2(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	switch (n->n_op) {
	case DT_T_ASGN: case DT_T_ADD_EQ: case DT_T_SUB_EQ: case DT_T_MUL_EQ:
	case DT_T_DIV_EQ: case DT_T_MOD_EQ: case DT_T_AND_EQ: case DT_T_OR_EQ:
	case DT_T_XOR_EQ: case DT_T_LSH_EQ: case DT_T_RSH_EQ:
		return cg_assign(ctx, b, n);
	case DT_T_LT: case DT_T_LE: case DT_T_GT: case DT_T_GE:
	case DT_T_EQ: case DT_T_NE:
		return cg_rel(ctx, b, n);
	case DT_T_LAND: case DT_T_LOR:
		return cg_bool(ctx, b, n);
	default:
		return cg_chain(ctx, b, n);
	}
}

static DT_NOINLINE int cg_op3(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	uint32_t lelse = label_new(ctx, b), lend = label_new(ctx, b);
	cg_cond(ctx, b, n->n_a, false, lelse);
	int rd = cg(ctx, b, n->n_b);
	branch(ctx, b, DIF_OP_BA, lend);
	label_here(b, lelse);
	reg_free(b, rd);		/* dead on this path */
	int re = cg(ctx, b, n->n_c);
	if (re != rd) {
		emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, re, rd));
		reg_free(b, re);
		b->cb_regs |= (uint8_t)(1u << rd);
	}
	label_here(b, lend);
	return rd;
}

/* ---- calls ---- */

static DT_NOINLINE int cg_call(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	const dt_func *fn = dt_call_func(n);
	if (fn->fn_subr < 0)	/* an action: DTrace finds it here too */
		dt_error_node(ctx, n, "D_CG_EXPR", "%s %s( ) may not be called "
		    "from a D expression (D program context required)",
		    fn->fn_class == DT_FN_AGG ? "aggregating function" :
		    "tracing function", fn->fn_name);
	push_tuple(ctx, b, n->n_args);
	int rd = reg_alloc(ctx, b, n);
	emit(ctx, b, DIF_INSTR_CALL(fn->fn_subr, rd));
	return rd;
}

static DT_NOINLINE int cg_index(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	int r;
	if (n->n_ival == -1) {		/* args[i] */
		r = cg(ctx, b, n->n_args);
		emit(ctx, b, DIF_INSTR_LDGA(n->n_a->n_ival, r, r));
		return r;
	}
	if (n->n_ival == -2) {		/* p[i] */
		r = cg_addr(ctx, b, n);
		load(ctx, b, n->n_type, r, false);
		return r;
	}
	r = reg_alloc(ctx, b, n);
	var_load(ctx, b, n, r);
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
	emit(ctx, b, DIF_INSTR_PUSHTR(DIF_TT_STR, 0, rv));
	int rl = reg_alloc(ctx, b, where);
	emit(ctx, b, DIF_INSTR_CALL(DIF_SUBR_STRLEN, rl));
	add_const(ctx, b, where, rl, 1);
	int rs = reg_alloc(ctx, b, where);
	set_int(ctx, b, where, size, rs);
	uint32_t lok = label_new(ctx, b);
	emit(ctx, b, DIF_INSTR_CMP(DIF_OP_CMP, rl, rs));
	branch(ctx, b, DIF_OP_BLEU, lok);
	emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, rs, rl));
	label_here(b, lok);
	reg_free(b, rs);
	emit(ctx, b, DIF_INSTR_RRR(DIF_OP_COPYS, rv, rl, ra));
	reg_free(b, rl);
}

/*
 * xlate<T>(e) as a value (dt_sema_ref.c's dt_cook_xlate): zeroed scratch
 * of T's size, each translated member stored at its offset; the register
 * holds the scratch's address (the struct, by reference, or T * itself).
 */
static DT_NOINLINE int cg_xlate(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	const dt_type *st = n->n_type->ty_kind == DT_TK_PTR ?
	    n->n_type->ty_base : n->n_type;
	int rp = reg_alloc(ctx, b, n);
	int rs = reg_alloc(ctx, b, n);
	set_int(ctx, b, n, st->ty_size, rs);
	emit(ctx, b, DIF_INSTR_RR(DIF_OP_ALLOCS, rs, rp));
	reg_free(b, rs);
	for (dt_node *w = n->n_args; w != NULL; w = w->n_next) {
		int rv = cg(ctx, b, w->n_a);
		int ra = reg_alloc(ctx, b, w);
		emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, rp, ra));
		add_const(ctx, b, w, ra, (uint64_t)w->n_ival);
		if (dt_type_isstring(w->n_type))
			store_string(ctx, b, w, rv, ra);
		else if (w->n_type->ty_kind == DT_TK_ARRAY &&
		    dt_type_isstrcompat(w->n_a->n_type))
			store_chars(ctx, b, w, w->n_type->ty_size, rv, ra);
		else
			store(ctx, b, w, w->n_type, rv, ra);
		reg_free(b, ra);
		reg_free(b, rv);
	}
	return rp;
}

/* ---- the dispatcher ---- */

static int cg(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	int r;
	switch (n->n_kind) {
	case DT_N_INT:
		r = reg_alloc(ctx, b, n);
		set_int(ctx, b, n, (uint64_t)n->n_ival, r);
		return r;
	case DT_N_STR:
		r = reg_alloc(ctx, b, n);
		emit(ctx, b, DIF_INSTR_SETS(str_offset(ctx, b, n, n->n_str,
		    str_cut(ctx, n->n_slen)), r));
		return r;
	case DT_N_VAR: case DT_N_SELF: case DT_N_THIS:
		r = reg_alloc(ctx, b, n);
		var_load(ctx, b, n, r);
		return r;
	case DT_N_OP1: return (cg_op1(ctx, b, n));
	case DT_N_OP2: return (cg_op2(ctx, b, n));
	case DT_N_OP3: return (cg_op3(ctx, b, n));
	case DT_N_CALL: return (cg_call(ctx, b, n));
	case DT_N_INDEX: return (cg_index(ctx, b, n));
	case DT_N_MEMBER:
		r = cg_addr(ctx, b, n);
		load(ctx, b, n->n_type, r, false);
		bitfield_extend(ctx, b, n, n->n_type, r);
		return r;
	case DT_N_CAST:
		r = cg(ctx, b, n->n_a);
		if (dt_type_isint(n->n_type) && (!dt_type_isint(n->n_a->n_type) ||
		    n->n_type->ty_size < n->n_a->n_type->ty_size ||
		    n->n_type->ty_signed != n->n_a->n_type->ty_signed))
			extend(ctx, b, n, n->n_type, r);
		return r;
	case DT_N_STRINGOF:
		return cg(ctx, b, n->n_a);
	case DT_N_XLATE: return (cg_xlate(ctx, b, n));
	default:
		dt_error_node(ctx, n, "D_CG_EXPR", "internal error: cannot "
		    "generate code for this expression");
	}
}

/* ---- the DIFO ---- */

typedef struct vreport {
	dt_ctx *vr_ctx;
	dt_node *vr_node;
} vreport;

static void validate_report(void *arg, uint32_t pc, const char *why)
{
	vreport *v = arg;
	dt_error_node(v->vr_ctx, v->vr_node, "D_CG_EXPR", "internal error: "
	    "generated DIF failed validation at pc %u: %s", pc, why);
}

dif_difo_t *dt_cg_expr(dt_ctx *ctx, dt_node *n)
{
	dt_cgbuf b;
	__builtin_memset(&b, 0, sizeof(b));
	b.cb_regs = 1;			/* %r0 */
	if (is_cond(n)) {		/* a predicate: ret 1 falling through, ret %r0 jumped to */
		uint32_t lfalse = label_new(ctx, &b);
		cg_cond(ctx, &b, n, false, lfalse);
		int r = reg_alloc(ctx, &b, n);
		set_int(ctx, &b, n, 1, r);
		emit(ctx, &b, DIF_INSTR_RET(r));
		label_here(&b, lfalse);
		emit(ctx, &b, DIF_INSTR_RET(0));
	} else {
		emit(ctx, &b, DIF_INSTR_RET(cg(ctx, &b, n)));
	}
	for (uint32_t pc = 0; pc < b.cb_n; pc++) {
		const dif_opinfo_t *oi = dif_opinfo(DIF_INSTR_OP(b.cb_insns[pc]));
		if (oi != NULL && (oi->oi_flags & DIF_OF_BRANCH))
			b.cb_insns[pc] = DIF_INSTR_BRANCH(
			    DIF_INSTR_OP(b.cb_insns[pc]),
			    b.cb_labels[DIF_INSTR_LABEL(b.cb_insns[pc])]);
	}
	dif_difo_t *d = dt_alloc(ctx, sizeof(*d));
	d->dd_insns = b.cb_insns;
	d->dd_ninsns = b.cb_n;
	d->dd_inttab = b.cb_ints;
	d->dd_nints = b.cb_nints;
	d->dd_strtab = b.cb_strs;
	d->dd_strlen = b.cb_strlen;
	d->dd_vartab = b.cb_vars;
	d->dd_nvars = b.cb_nvars;
	d->dd_rtype = dif_type_of(ctx, n->n_type);
	vreport v = { ctx, n };
	dif_validate(d, DIF_VF_DESTRUCTIVE | DIF_VF_USER, validate_report, &v);
	return d;
}
