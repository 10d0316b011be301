/*
 * dlang/dt_cg_op.c: DIF code generation for operators and calls.
 *
 * Arithmetic, bitwise and shift operators map one-to-one on DIF's; a
 * comparison sets the condition codes, and a predicate or a condition
 * (if, ?:, &&, ||, !) is generated as jumps (dt_cg_cond) rather than as a
 * value, so `a && b` branches past b.  A chain of left-associative
 * operators is one loop (cg_chain).  When an operand would not fit in the
 * registers left, the held left operand is spilled to a hidden
 * clause-local (cg_spilled, spill_slot: "register pressure", dt_cg.c).
 * Calls push their arguments as a tuple and end with DIF's call of the
 * subroutine; indexing an associative array or args[] is here too.
 *
 * Context: as the compiler's (dlang/dt.h); shares dlang/dt_cg_impl.h
 * with dt_cg.c and dt_cg_var.c.
 *
 * Tests: tests/dlang/ (exact DIF); tests/d/registers (spilling),
 *        tests/d/predicates, tests/d/integers, tests/d/subr
 */
#include "dlang/dt_cg_impl.h"

/* ---- operators ---- */

/* rd = 1 if the condition codes satisfy op, else 0. */
static void cc_to_bool(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, unsigned op, int rd)
{
	uint32_t lt = dt_cg_label_new(ctx, b), le = dt_cg_label_new(ctx, b);
	dt_cg_branch(ctx, b, op, lt);
	dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, 0, rd));
	dt_cg_branch(ctx, b, DIF_OP_BA, le);
	dt_cg_label_here(b, lt);
	dt_cg_set_int(ctx, b, where, 1, rd);
	dt_cg_label_here(b, le);
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
 * generated as jumping code: dt_cg_cond(n, when, l) branches to l when n's
 * truth is `when` and falls through otherwise, so that `a > 100 && b != 0`
 * is two compare-and-branch pairs and no 0/1 values in between.  A value
 * is made only where one is needed (cg_bool), and a whole predicate ends
 * in two rets (dt_cg_expr).
 */

static bool is_rel(const dt_node *n)
{
	return (n->n_kind == DT_N_OP2 && (n->n_op == DT_T_LT ||
	    n->n_op == DT_T_LE || n->n_op == DT_T_GT || n->n_op == DT_T_GE ||
	    n->n_op == DT_T_EQ || n->n_op == DT_T_NE));
}

/* Is n a condition that dt_cg_cond turns into branches only? */
bool dt_cg_is_cond(const dt_node *n)
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
	int ra = dt_cg_node(ctx, b, n->n_a);
	if (!str && is_zero(n->n_b)) {
		dt_cg_emit(ctx, b, DIF_INSTR_TST(ra));	/* cmp ra, 0 exactly */
	} else {
		int rb = dt_cg_node(ctx, b, n->n_b);
		dt_cg_emit(ctx, b, DIF_INSTR_CMP(str ? DIF_OP_SCMP : DIF_OP_CMP,
		    ra, rb));
		dt_cg_reg_free(b, rb);
	}
	dt_cg_reg_free(b, ra);
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
	uint32_t lskip = direct ? l : dt_cg_label_new(ctx, b);
	dt_cg_cond(ctx, b, spine[k], direct ? when : !when, lskip);
	for (uint32_t i = k; i >= 2; i--)
		dt_cg_cond(ctx, b, spine[i - 1]->n_b, direct ? when : !when, lskip);
	dt_cg_cond(ctx, b, n->n_b, when, l);
	if (!direct)
		dt_cg_label_here(b, lskip);
}

void dt_cg_cond(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, bool when, uint32_t l)
{
	if (is_rel(n)) {
		unsigned op = cg_compare(ctx, b, n);
		dt_cg_branch(ctx, b, when ? op : branch_invert(op), l);
	} else if (n->n_kind == DT_N_OP2 && (n->n_op == DT_T_LAND ||
	    n->n_op == DT_T_LOR)) {
		cg_cond_logical(ctx, b, n, when, l);
	} else if (n->n_kind == DT_N_OP1 && n->n_op == DT_T_LNEG) {
		dt_cg_cond(ctx, b, n->n_a, !when, l);
	} else {
		int r = dt_cg_node(ctx, b, n);
		dt_cg_emit(ctx, b, DIF_INSTR_TST(r));
		dt_cg_reg_free(b, r);
		dt_cg_branch(ctx, b, when ? DIF_OP_BNE : DIF_OP_BE, l);
	}
}

/* A condition's value, 0 or 1, in a new register. */
static int cg_bool(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	uint32_t lfalse = dt_cg_label_new(ctx, b), lend = dt_cg_label_new(ctx, b);
	dt_cg_cond(ctx, b, n, false, lfalse);
	int rd = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_set_int(ctx, b, n, 1, rd);
	dt_cg_branch(ctx, b, DIF_OP_BA, lend);
	dt_cg_label_here(b, lfalse);
	dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, 0, rd));
	dt_cg_label_here(b, lend);
	return rd;
}

static DT_NOINLINE int cg_rel(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	return cg_bool(ctx, b, n);
}

/* ^^ evaluates both sides (&& and || are conditions: cg_bool).  ra: n_a's value. */
static DT_NOINLINE int cg_logical(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, int ra)
{
	int rb = dt_cg_node(ctx, b, n->n_b);
	dt_cg_emit(ctx, b, DIF_INSTR_TST(ra));
	cc_to_bool(ctx, b, n, DIF_OP_BNE, ra);
	dt_cg_emit(ctx, b, DIF_INSTR_TST(rb));
	cc_to_bool(ctx, b, n, DIF_OP_BNE, rb);
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_XOR, ra, rb, ra));
	dt_cg_reg_free(b, rb);
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
void dt_cg_arith(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, dt_tokkind op, int ra, int rb)
{
	const dt_type *ta = n->n_a->n_type, *tb = n->n_b->n_type;
	if (ta->ty_kind == DT_TK_PTR && tb->ty_kind == DT_TK_PTR) {
		dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_SUB, ra, rb, ra));
		if (ta->ty_base->ty_size > 1) {
			dt_cg_set_int(ctx, b, n, ta->ty_base->ty_size, rb);
			dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_SDIV, ra, rb, ra));
		}
		return;
	}
	if (ta->ty_kind == DT_TK_PTR)
		dt_cg_scale(ctx, b, n, rb, ta->ty_base->ty_size);
	else if (tb->ty_kind == DT_TK_PTR)
		dt_cg_scale(ctx, b, n, ra, tb->ty_base->ty_size);
	bool s = n->n_type->ty_signed;
	if (op == DT_T_RSH)
		s = n->n_a->n_type->ty_signed || n->n_a->n_type->ty_size < 4;
	dt_cg_emit(ctx, b, DIF_INSTR_RRR(arith_op(op, s), ra, rb, ra));
}

/* Fault (BADADDR at 0) unless 0 <= ri < nelem: array bounds at run time. */

DT_NOINLINE int dt_cg_op1(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	int r;
	switch (n->n_op) {
	case DT_T_INC: case DT_T_DEC:
		return dt_cg_incdec(ctx, b, n);
	case DT_T_BAND:
		return dt_cg_addr(ctx, b, n->n_a);
	case DT_T_LNEG:
		return cg_bool(ctx, b, n);
	case DT_T_STAR:
		r = dt_cg_node(ctx, b, n->n_a);
		dt_cg_load(ctx, b, n->n_type, r, false);
		return r;
	default:
		break;
	}
	r = dt_cg_node(ctx, b, n->n_a);
	switch (n->n_op) {
	case DT_T_MINUS:
		dt_cg_emit(ctx, b, DIF_INSTR_RRR(DIF_OP_SUB, 0, r, r));
		break;
	case DT_T_BNEG:
		dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_NOT, r, r));
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
	dt_cg_var_ref(ctx, b, n, slot, true);
	dt_cg_emit(ctx, b, DIF_INSTR_VSTORE(DIF_OP_STLS, slot->id_id, *ra));
	dt_cg_reg_free(b, *ra);
	int rb = dt_cg_node(ctx, b, n->n_b);
	*ra = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_var_ref(ctx, b, n, slot, false);
	dt_cg_emit(ctx, b, DIF_INSTR_VLOAD(DIF_OP_LDLS, slot->id_id, *ra));
	b->cb_spills--;
	return rb;
}

/* The rest of binary operator n, whose left operand's value is in ra. */
static int cg_op2_rest(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, int ra)
{
	switch (n->n_op) {
	case DT_T_COMMA:
		dt_cg_reg_free(b, ra);
		return dt_cg_node(ctx, b, n->n_b);
	case DT_T_LXOR:			/* && ||: conditions, never in a chain */
		return cg_logical(ctx, b, n, ra);
	default: {
		int rb = dt_cg_need(n->n_b).nd_regs > dt_cg_regs_free(b) ? cg_spilled(ctx, b, n, &ra) :
		    dt_cg_node(ctx, b, n->n_b);
		dt_cg_arith(ctx, b, n, n->n_op, ra, rb);
		dt_cg_reg_free(b, rb);
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
		dt_need na = dt_cg_need(n->n_a), nb = dt_cg_need(n->n_b);
		int avail = dt_cg_regs_free(b);
		int usual = na.nd_regs > nb.nd_regs + 1 ? na.nd_regs : nb.nd_regs + 1;
		int swapped = nb.nd_regs > na.nd_regs + 1 ? nb.nd_regs : na.nd_regs + 1;
		if (!na.nd_impure && !nb.nd_impure && usual > avail && swapped < usual) {
			int rb = dt_cg_node(ctx, b, n->n_b);
			int ra = dt_cg_node(ctx, b, n->n_a);
			dt_cg_arith(ctx, b, n, n->n_op, ra, rb);
			dt_cg_reg_free(b, rb);
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
	int r = dt_cg_node(ctx, b, spine[k - 1]->n_a);
	for (uint32_t i = k; i >= 1; i--)
		r = cg_op2_rest(ctx, b, spine[i - 1], r);
	return r;
}

DT_NOINLINE int dt_cg_op2(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	switch (n->n_op) {
	case DT_T_ASGN: case DT_T_ADD_EQ: case DT_T_SUB_EQ: case DT_T_MUL_EQ:
	case DT_T_DIV_EQ: case DT_T_MOD_EQ: case DT_T_AND_EQ: case DT_T_OR_EQ:
	case DT_T_XOR_EQ: case DT_T_LSH_EQ: case DT_T_RSH_EQ:
		return dt_cg_assign(ctx, b, n);
	case DT_T_LT: case DT_T_LE: case DT_T_GT: case DT_T_GE:
	case DT_T_EQ: case DT_T_NE:
		return cg_rel(ctx, b, n);
	case DT_T_LAND: case DT_T_LOR:
		return cg_bool(ctx, b, n);
	default:
		return cg_chain(ctx, b, n);
	}
}

DT_NOINLINE int dt_cg_op3(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	uint32_t lelse = dt_cg_label_new(ctx, b), lend = dt_cg_label_new(ctx, b);
	dt_cg_cond(ctx, b, n->n_a, false, lelse);
	int rd = dt_cg_node(ctx, b, n->n_b);
	dt_cg_branch(ctx, b, DIF_OP_BA, lend);
	dt_cg_label_here(b, lelse);
	dt_cg_reg_free(b, rd);		/* dead on this path */
	int re = dt_cg_node(ctx, b, n->n_c);
	if (re != rd) {
		dt_cg_emit(ctx, b, DIF_INSTR_RR(DIF_OP_MOV, re, rd));
		dt_cg_reg_free(b, re);
		b->cb_regs |= (uint8_t)(1u << rd);
	}
	dt_cg_label_here(b, lend);
	return rd;
}

/* ---- calls ---- */

DT_NOINLINE int dt_cg_call(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	const dt_func *fn = dt_call_func(n);
	if (fn->fn_subr < 0)	/* an action: DTrace finds it here too */
		dt_error_node(ctx, n, "D_CG_EXPR", "%s %s( ) may not be called "
		    "from a D expression (D program context required)",
		    fn->fn_class == DT_FN_AGG ? "aggregating function" :
		    "tracing function", fn->fn_name);
	dt_cg_push_tuple(ctx, b, n->n_args);
	int rd = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_emit(ctx, b, DIF_INSTR_CALL(fn->fn_subr, rd));
	return rd;
}

DT_NOINLINE int dt_cg_index(dt_ctx *ctx, dt_cgbuf *b, dt_node *n)
{
	int r;
	if (n->n_ival == -1) {		/* args[i] */
		r = dt_cg_node(ctx, b, n->n_args);
		dt_cg_emit(ctx, b, DIF_INSTR_LDGA(n->n_a->n_ival, r, r));
		return r;
	}
	if (n->n_ival == -2) {		/* p[i] */
		r = dt_cg_addr(ctx, b, n);
		dt_cg_load(ctx, b, n->n_type, r, false);
		return r;
	}
	r = dt_cg_reg_alloc(ctx, b, n);
	dt_cg_var_load(ctx, b, n, r);
	return r;
}

