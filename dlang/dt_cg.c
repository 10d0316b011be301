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
 * Files: this one (buffer and tables, registers and labels, loads,
 * register pressure, the dispatcher, the DIFO), dt_cg_var.c (variables,
 * addresses, stores) and dt_cg_op.c (operators, conditions, spilling,
 * calls), sharing dlang/dt_cg_impl.h.
 *
 * Tests: tests/dlang/ (exact DIF); tests/d (every runtime program); make
 *        dlang-fuzz
 */
#include "dlang/dt_cg_impl.h"

/* ---- buffer and tables ---- */

void dt_cg_emit(dt_ctx *ctx, dt_cgbuf *b, dif_instr_t in)
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

uint32_t dt_cg_str_offset(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const char *s,
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

int dt_cg_reg_alloc(dt_ctx *ctx, dt_cgbuf *b, dt_node *where)
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

void dt_cg_reg_free(dt_cgbuf *b, int r)
{
	if (r > 0)
		b->cb_regs &= (uint8_t)~(1u << r);
}

uint32_t dt_cg_label_new(dt_ctx *ctx, dt_cgbuf *b)
{
	b->cb_labels = dt_grow(ctx, b->cb_labels, b->cb_nlabels, &b->cb_capl,
	    sizeof(uint32_t));
	b->cb_labels[b->cb_nlabels] = UINT32_MAX;
	return b->cb_nlabels++;
}

void dt_cg_label_here(dt_cgbuf *b, uint32_t l)
{
	b->cb_labels[l] = b->cb_n;
}

void dt_cg_branch(dt_ctx *ctx, dt_cgbuf *b, unsigned op, uint32_t l)
{
	dt_cg_emit(ctx, b, DIF_INSTR_BRANCH(op, l));
}

void dt_cg_set_int(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, uint64_t v, int rd)
{
	dt_cg_emit(ctx, b, DIF_INSTR_SETX(int_index(ctx, b, where, v), rd));
}

/* ---- loads ---- */

bool dt_cg_by_ref(const dt_type *t)
{
	return (t->ty_kind == DT_TK_STRUCT || t->ty_kind == DT_TK_UNION ||
	    t->ty_kind == DT_TK_ARRAY || t->ty_kind == DT_TK_STRING ||
	    (t->ty_kind == DT_TK_FLOAT && t->ty_size > 8));
}

/* rd = *(type *)rd, unless the type is by reference (keep the address). */
void dt_cg_load(dt_ctx *ctx, dt_cgbuf *b, const dt_type *t, int rd, bool user)
{
	unsigned op;
	if (dt_cg_by_ref(t))
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
	dt_cg_emit(ctx, b, DIF_INSTR_LOAD(op, rd, rd));
}

/* Sign- or zero-extend rd from the width of integer type t. */
void dt_cg_extend(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const dt_type *t, int rd)
{
	uint32_t sz = t->ty_kind == DT_TK_PTR ? 8 : t->ty_size;
	if (sz >= 8 || sz == 0 || !dt_type_isint(t))
		return;
	int rs = dt_cg_reg_alloc(ctx, b, where);
	dt_cg_set_int(ctx, b, where, 64 - sz * 8, rs);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_SHL, rd, rs, rd));
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(t->ty_signed ? DIF_OP_SRA : DIF_OP_SRL, rd,
	    rs, rd));
	dt_cg_reg_free(b, rs);
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
 * reordering cannot be seen.  dt_cg_need() estimates the registers a
 * subtree takes under that rule (a dt_need, dt_cg_impl.h); it walks left
 * chains in a loop, like cg_chain.
 */
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
			a.nd_impure = true;	/* value, step, new value, dt_cg_extend's */
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

dt_need dt_cg_need(const dt_node *n)
{
	dt_need o = { 0, false, false };
	need_node(n, &o);
	return o;
}

/* Registers not in use. */
int dt_cg_regs_free(const dt_cgbuf *b)
{
	int k = 0;
	for (int r = 1; r < DIF_NREGS; r++)
		k += !(b->cb_regs & (1u << r));
	return k;
}


/* ---- the dispatcher ---- */

int dt_cg_node(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	int r;
	switch (n->n_kind) {
	case DT_N_INT:
		r = dt_cg_reg_alloc(ctx, b, n);
		dt_cg_set_int(ctx, b, n, (uint64_t)n->n_ival, r);
		return r;
	case DT_N_STR:
		r = dt_cg_reg_alloc(ctx, b, n);
		dt_cg_emit(ctx, b, DIF_INSTR_SETS(dt_cg_str_offset(ctx, b, n, n->n_str,
		    str_cut(ctx, n->n_slen)), r));
		return r;
	case DT_N_VAR: case DT_N_SELF: case DT_N_THIS:
		r = dt_cg_reg_alloc(ctx, b, n);
		dt_cg_var_load(ctx, b, n, r);
		return r;
	case DT_N_OP1: return (dt_cg_op1(ctx, b, n));
	case DT_N_OP2: return (dt_cg_op2(ctx, b, n));
	case DT_N_OP3: return (dt_cg_op3(ctx, b, n));
	case DT_N_CALL: return (dt_cg_call(ctx, b, n));
	case DT_N_INDEX: return (dt_cg_index(ctx, b, n));
	case DT_N_MEMBER:
		r = dt_cg_addr(ctx, b, n);
		dt_cg_load(ctx, b, n->n_type, r, false);
		dt_cg_bitfield_extend(ctx, b, n, n->n_type, r);
		return r;
	case DT_N_CAST:
		r = dt_cg_node(ctx, b, n->n_a);
		if (dt_type_isint(n->n_type) && (!dt_type_isint(n->n_a->n_type) ||
		    n->n_type->ty_size < n->n_a->n_type->ty_size ||
		    n->n_type->ty_signed != n->n_a->n_type->ty_signed))
			dt_cg_extend(ctx, b, n, n->n_type, r);
		return r;
	case DT_N_STRINGOF:
		return dt_cg_node(ctx, b, n->n_a);
	case DT_N_XLATE: return (dt_cg_xlate(ctx, b, n));
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
	if (dt_cg_is_cond(n)) {		/* a predicate: ret 1 falling through, ret %r0 jumped to */
		uint32_t lfalse = dt_cg_label_new(ctx, &b);
		dt_cg_cond(ctx, &b, n, false, lfalse);
		int r = dt_cg_reg_alloc(ctx, &b, n);
		dt_cg_set_int(ctx, &b, n, 1, r);
		dt_cg_emit(ctx, &b, DIF_INSTR_RET(r));
		dt_cg_label_here(&b, lfalse);
		dt_cg_emit(ctx, &b, DIF_INSTR_RET(0));
	} else {
		dt_cg_emit(ctx, &b, DIF_INSTR_RET(dt_cg_node(ctx, &b, n)));
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
	d->dd_rtype = dt_cg_dif_type_of(ctx, n->n_type);
	vreport v = { ctx, n };
	dif_validate(d, DIF_VF_DESTRUCTIVE | DIF_VF_USER, validate_report, &v);
	return d;
}
