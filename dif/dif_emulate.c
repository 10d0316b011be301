/*
 * dif/dif_emulate.c: the DIF interpreter. There is exactly one.
 *
 * dif_emulate() is one loop over the instructions with one tiny case per
 * opcode. Registers live in a local array (%r0 is zero and, in a validated
 * program, never written). The condition codes n z v c of "cmp a, b" are
 * kept as the pair (a, b) itself: each branch then asks its question
 * directly (z is a == b, n ^ v is a < b signed, c is a < b unsigned), which
 * is exact, including signed overflow. tst a is cmp a, 0 (v = c = 0), and
 * scmp is cmp strcmp(r1, r2), 0. Anything longer than a few
 * lines is a helper below the loop's helpers section: variable access, the
 * tuple stack, stores into scratch. Memory is reached only through
 * dif_mem.c, subroutines only through dif_subr.c.
 *
 * Safety argument. The validator guarantees that every branch goes forward
 * and the last instruction is ret, so the loop runs at most dd_ninsns times.
 * Register numbers are masked to 0..7 even so, so that a program that never
 * went through dif_validate() still cannot index outside the register file.
 * Every operation that can fail (memory, division, scratch, tuple stack,
 * callbacks) returns a fault code that ends the run through `out`, with the
 * fault's pc and address already recorded in st->ds_fault.
 *
 * Context: probe context. No locks, no sleeping, no globals: the only
 * state is the caller's dif_state_t.
 *
 * Tests: tests/unit/dif_emulate_test.c; tests/dif/ (every vector) (make dif-check);
 *        make dif-fuzz
 */
#include "dif/dif_impl.h"
#include "dif/dif_jit.h"

void dif_state_init(dif_state_t *st, const dif_env_t *env, void *scratch,
                    size_t scratch_size, uint32_t strsize)
{
	/* Everything but the tuple stack, which every run starts empty (ds_ntuples = 0). */
	__builtin_memset(st, 0, __builtin_offsetof(dif_state_t, ds_tuples));
	st->ds_env = env;
	st->ds_scratch = scratch;
	st->ds_scratch_size = scratch_size;
	st->ds_strsize = strsize ? strsize : DIF_STRSIZE_DEFAULT;
	st->ds_rand = 0x2545f4914f6cdd1dull;
}

/* ---- variables ---------------------------------------------------------- */

/* Build the reference for user variable (id, scope); arrays take the tuple. */
static int dif_varref(struct dif_run *r, uint32_t id, unsigned scope,
                      unsigned kind, dif_varref_t *ref)
{
	const dif_var_t *v = dif_var_lookup(r->dp, id, scope);

	if (v == NULL || v->dv_kind != kind)
		return dif_fault(r, DIF_FAULT_ILLOP, id);
	ref->vr_var = v;
	ref->vr_keys = kind == DIF_VKIND_ARRAY ? r->st->ds_tuples : NULL;
	ref->vr_nkeys = kind == DIF_VKIND_ARRAY ? r->st->ds_ntuples : 0;
	return 0;
}

static int dif_var_load(struct dif_run *r, uint32_t id, unsigned scope,
                        unsigned kind, uint64_t *val)
{
	dif_varref_t ref;
	int f;

	if ((f = dif_varref(r, id, scope, kind, &ref)) != 0)
		return f;
	if (r->env->de_var_load == NULL)
		return dif_fault(r, DIF_FAULT_ILLOP, id);
	f = r->env->de_var_load(r->env->de_ctx, &ref, val);
	r->st->ds_ntuples = 0;
	return f ? dif_fault(r, (unsigned)f, 0) : 0;
}

/* Host-readable bytes of a by-ref value about to be stored. */
static int dif_var_data(struct dif_run *r, const dif_var_t *v, uint64_t value,
                        const uint8_t **data, size_t *size)
{
	const char *s;
	int f;

	*data = NULL;
	*size = 0;
	if (!(v->dv_type.dt_flags & DIF_TF_BYREF) || value == 0)
		return 0;
	if (v->dv_type.dt_kind != DIF_TYPE_STRING) {
		*size = v->dv_type.dt_size;
		return dif_readable(r, value, *size, data);
	}
	if ((f = dif_string(r, value, v->dv_type.dt_size, DIF_SPACE_KERNEL, &s,
	    size)) != 0)
		return f;
	*data = (const uint8_t *)s;
	*size += 1;
	return 0;
}

static int dif_var_store(struct dif_run *r, uint32_t id, unsigned scope,
                         unsigned kind, uint64_t value)
{
	dif_varref_t ref;
	const uint8_t *data;
	size_t size;
	int f;

	if ((f = dif_varref(r, id, scope, kind, &ref)) != 0 ||
	    (f = dif_var_data(r, ref.vr_var, value, &data, &size)) != 0)
		return f;
	if (r->env->de_var_store == NULL)
		return dif_fault(r, DIF_FAULT_ILLOP, id);
	f = r->env->de_var_store(r->env->de_ctx, &ref, value, data, size);
	r->st->ds_ntuples = 0;
	return f ? dif_fault(r, (unsigned)f, 0) : 0;
}

static int dif_builtin_load(struct dif_run *r, uint32_t id, uint64_t index,
                            uint64_t *val)
{
	int f;

	if (r->env->de_builtin == NULL)
		return dif_fault(r, DIF_FAULT_ILLOP, id);
	f = r->env->de_builtin(r->env->de_ctx, id, index, val);
	return f ? dif_fault(r, (unsigned)f, 0) : 0;
}

/* ldgs: arg0..arg9 from the state, other built-ins from the environment. */
static int dif_ldgs(struct dif_run *r, uint32_t id, uint64_t *val)
{
	if (id >= DIF_VAR_ARG0 && id <= DIF_VAR_ARG9) {
		*val = r->st->ds_args[id - DIF_VAR_ARG0];
		return 0;
	}
	if (id < DIF_VAR_USER_BASE)
		return dif_builtin_load(r, id, 0, val);
	return dif_var_load(r, id, DIF_SCOPE_GLOBAL, DIF_VKIND_SCALAR, val);
}

/* ldga: args[i] (from the state when i < DIF_NARGS) and uregs[i]. */
static int dif_ldga(struct dif_run *r, uint32_t id, uint64_t index,
                    uint64_t *val)
{
	if (id == DIF_VAR_ARGS && index < DIF_NARGS) {
		*val = r->st->ds_args[index];
		return 0;
	}
	return dif_builtin_load(r, id, index, val);
}

/* ---- the tuple stack ---------------------------------------------------- */

static int dif_push(struct dif_run *r, uint64_t value, uint64_t size)
{
	dif_state_t *st = r->st;

	if (st->ds_ntuples >= DIF_TUPLE_MAX)
		return dif_fault(r, DIF_FAULT_TUPOFLOW, 0);
	st->ds_tuples[st->ds_ntuples].dk_value = value;
	st->ds_tuples[st->ds_ntuples].dk_size = size;
	st->ds_ntuples++;
	return 0;
}

/* pushtr: make the bytes host-readable now, so keys are stable values. */
static int dif_push_ref(struct dif_run *r, unsigned type, uint64_t bound,
                        uint64_t addr)
{
	const uint8_t *p;
	const char *s;
	size_t len;
	int f;

	if (type == DIF_TT_STR) {
		if ((f = dif_string(r, addr, bound, DIF_SPACE_KERNEL, &s, &len)) != 0)
			return f;
		return dif_push(r, dif_addr(s), len + 1);
	}
	if (type != DIF_TT_MEM || bound == 0)
		return dif_fault(r, DIF_FAULT_ILLOP, addr);
	if ((f = dif_readable(r, addr, bound, &p)) != 0)
		return f;
	return dif_push(r, dif_addr(p), bound);
}

static int dif_call(struct dif_run *r, unsigned id, uint64_t *val)
{
	int f = dif_subr_call(r, id, r->st->ds_tuples, r->st->ds_ntuples, val);

	r->st->ds_ntuples = 0;
	return f;
}

/* ---- scratch ------------------------------------------------------------ */

static int dif_store(struct dif_run *r, uint64_t addr, unsigned size,
                     uint64_t value)
{
	uint8_t *p;
	uint8_t b1 = (uint8_t)value;
	uint16_t b2 = (uint16_t)value;
	uint32_t b4 = (uint32_t)value;
	int f;

	if ((f = dif_scratch_writable(r, addr, size, &p)) != 0)
		return f;
	if (addr & (size - 1))                   /* as loads: DTrace's BADALIGN */
		return dif_fault(r, DIF_FAULT_BADALIGN, addr);
	switch (size) {
	case 1: __builtin_memcpy(p, &b1, 1); break;
	case 2: __builtin_memcpy(p, &b2, 2); break;
	case 4: __builtin_memcpy(p, &b4, 4); break;
	default: __builtin_memcpy(p, &value, 8); break;
	}
	return 0;
}

static int dif_allocs(struct dif_run *r, uint64_t n, uint64_t *val)
{
	uint8_t *p;
	int f = dif_scratch_alloc(r, n, &p);

	if (f == 0)
		*val = dif_addr(p);
	return f;
}

/* ---- arithmetic that C leaves undefined --------------------------------- */

static uint64_t dif_sdiv(uint64_t a, uint64_t b)
{
	if (b == (uint64_t)-1)
		return 0 - a;                     /* INT64_MIN / -1 wraps */
	return (uint64_t)((int64_t)a / (int64_t)b);
}

static uint64_t dif_srem(uint64_t a, uint64_t b)
{
	if (b == (uint64_t)-1)
		return 0;
	return (uint64_t)((int64_t)a % (int64_t)b);
}

static uint64_t dif_sra(uint64_t a, uint64_t b)
{
	unsigned s = (unsigned)(b & 63);

	return (a >> s) | ((a >> 63) && s ? ~(~(uint64_t)0 >> s) : 0);
}

static uint64_t dif_sext(uint64_t v, unsigned bytes)
{
	unsigned s = 64 - 8 * bytes;

	return (uint64_t)((int64_t)(v << s) >> s);
}

/* A taken branch: forward only, even in a program nobody validated. */
static int dif_jump(struct dif_run *r, dif_instr_t in)
{
	return DIF_INSTR_LABEL(in) > r->pc ? 0 :
	    dif_fault(r, DIF_FAULT_ILLOP, DIF_INSTR_LABEL(in));
}

/* ---- the loop ----------------------------------------------------------- */

#define RM(f)  (DIF_INSTR_##f(in) & (DIF_NREGS - 1))
#define R1     reg[RM(R1)]
#define R2     reg[RM(R2)]
#define RD     reg[RM(RD)]
#define TRY(e) do { if ((f = (e)) != 0) goto out; } while (0)
#define DIV0() do { if (R2 == 0) { f = dif_fault(&r, DIF_FAULT_DIVZERO, 0); \
                                   goto out; } } while (0)
#define JUMP(cond) do { if (cond) { TRY(dif_jump(&r, in)); \
	pc = DIF_INSTR_LABEL(in) - 1; } } while (0)
#define LOAD(size, space, sign) do { uint64_t v_; \
	TRY(dif_load(&r, R1, size, space, &v_)); \
	RD = (sign) ? dif_sext(v_, size) : v_; } while (0)
#define SETCC(a, b) do { ca = (a); cb = (b); } while (0)
#define SLT(a, b) ((int64_t)(a) < (int64_t)(b))

int dif_emulate(const dif_difo_t *dp, dif_state_t *st, uint64_t *rval)
{
	struct dif_run r = { .dp = dp, .st = st, .env = st->ds_env, .pc = 0 };
	const dif_instr_t *insns = dp->dd_insns;
	uint64_t reg[DIF_NREGS] = { 0 };
	uint32_t pc, n = dp->dd_ninsns, idx;
	uint64_t count = 0;
	uint64_t ca = 0, cb = 0;              /* condition codes: cmp ca, cb */
	int sres, f = 0;

	st->ds_fault.df_code = DIF_FAULT_NONE;
	st->ds_ntuples = 0;
	for (pc = 0; pc < n; pc++) {
		dif_instr_t in = insns[pc];
		r.pc = pc;
		count++;
		switch ((enum dif_op)DIF_INSTR_OP(in)) {
		case DIF_OP_ADD:  RD = R1 + R2; break;
		case DIF_OP_SUB:  RD = R1 - R2; break;
		case DIF_OP_MUL:  RD = R1 * R2; break;
		case DIF_OP_SDIV: DIV0(); RD = dif_sdiv(R1, R2); break;
		case DIF_OP_UDIV: DIV0(); RD = R1 / R2; break;
		case DIF_OP_SREM: DIV0(); RD = dif_srem(R1, R2); break;
		case DIF_OP_UREM: DIV0(); RD = R1 % R2; break;
		case DIF_OP_AND:  RD = R1 & R2; break;
		case DIF_OP_OR:   RD = R1 | R2; break;
		case DIF_OP_XOR:  RD = R1 ^ R2; break;
		case DIF_OP_SHL:  RD = R1 << (R2 & 63); break;
		case DIF_OP_SRL:  RD = R1 >> (R2 & 63); break;
		case DIF_OP_SRA:  RD = dif_sra(R1, R2); break;
		case DIF_OP_NOT:  RD = ~R1; break;
		case DIF_OP_MOV:  RD = R1; break;

		case DIF_OP_CMP:  SETCC(R1, R2); break;
		case DIF_OP_TST:  SETCC(R1, 0); break;
		case DIF_OP_BA:   JUMP(true); break;
		case DIF_OP_BE:   JUMP(ca == cb); break;
		case DIF_OP_BNE:  JUMP(ca != cb); break;
		case DIF_OP_BG:   JUMP(SLT(cb, ca)); break;
		case DIF_OP_BGU:  JUMP(ca > cb); break;
		case DIF_OP_BGE:  JUMP(!SLT(ca, cb)); break;
		case DIF_OP_BGEU: JUMP(ca >= cb); break;
		case DIF_OP_BL:   JUMP(SLT(ca, cb)); break;
		case DIF_OP_BLU:  JUMP(ca < cb); break;
		case DIF_OP_BLE:  JUMP(!SLT(cb, ca)); break;
		case DIF_OP_BLEU: JUMP(ca <= cb); break;

		case DIF_OP_SETX:
			idx = DIF_INSTR_INDEX(in);
			if (idx >= dp->dd_nints) {
				f = dif_fault(&r, DIF_FAULT_ILLOP, idx);
				goto out;
			}
			RD = dp->dd_inttab[idx];
			break;
		/* memory, variables, built-ins, tuples, calls (shared with dif_jit_callout) */
#include "dif/dif_insn_more.h"

		case DIF_OP_NOP:   break;
		case DIF_OP_RET:  *rval = RD; goto out;   /* f == 0 */

		case DIF_OP_INVALID:
		case DIF_OP_MAX:
		default:
			f = dif_fault(&r, DIF_FAULT_ILLOP, in);
			goto out;
		}
	}
	r.pc = pc;
	f = dif_fault(&r, DIF_FAULT_ILLOP, 0);   /* fell off the end: no ret */
out:
	st->ds_insns += count;
	st->ds_ntuples = 0;
	return f;
}

/* dif_jit_callout: one instruction of dif_insn_more.h, as the loop runs it (dif/dif_jit.h). */
int dif_jit_callout(dif_state_t *st, const dif_difo_t *dp, uint32_t pc, uint64_t *reg)
{
	struct dif_run r = { .dp = dp, .st = st, .env = st->ds_env, .pc = pc };
	dif_instr_t in = dp->dd_insns[pc];
	uint64_t ca = reg[DIF_NREGS], cb = reg[DIF_NREGS + 1];
	int sres, f = 0;

	switch ((enum dif_op)DIF_INSTR_OP(in)) {
#include "dif/dif_insn_more.h"
	default:
		f = dif_fault(&r, DIF_FAULT_ILLOP, in);
		break;
	}
out:
	reg[DIF_NREGS] = ca;
	reg[DIF_NREGS + 1] = cb;
	return f;
}
