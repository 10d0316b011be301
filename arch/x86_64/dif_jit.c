/*
 * arch/x86_64/dif_jit.c: the DIF JIT's x86-64 code generator (dif/dif_jit.h).
 *
 * One pass over the DIFO emits one short x86-64 sequence per DIF
 * instruction into the caller's buffer; branch displacements are patched
 * at the end, when every DIF instruction's native offset is known.  Pure:
 * it builds bytes and never runs or installs them, so it also builds on
 * the host, where tests/dif/dift.c -jit runs every vector through it.
 *
 * Registers.  DIF %r0..%r7 live in r8 r9 r10 r11 rbx r12 r13 r14; %r0's r8
 * is zeroed on entry (and again after every call out) and never written
 * (a DIFO that writes %r0 is not translated), and every other DIF register
 * starts at 0, as in the interpreter.  r15 holds the dif_state_t (rdi, in
 * code without call-outs); rax, rcx and rdx are scratch (division, shift
 * counts).  The frame, below the callee-saved registers: the register
 * file the call-outs see at [rsp] (regs[0..7]), then the condition pair at
 * [rsp+64] and [rsp+72] (regs[8], regs[9], so an scmp's call-out sets
 * them), then rval at [rsp+80]; code without call-outs keeps only the
 * pair, at [rsp] and [rsp+8], and only if a branch reloads it.
 *
 * Condition codes.  As in the interpreter, "cmp a, b" keeps the pair
 * (a, b) and each branch asks its own question (tst a is cmp a, 0).  cmp
 * stores the pair and also sets the flags; a branch right after a cmp, tst
 * or another conditional branch, and not itself a branch target, uses the
 * flags; any other conditional branch reloads the pair and compares again.
 * Flags therefore never need to survive an arithmetic instruction or a
 * call out.
 *
 * Call-outs.  An instruction with no inline translation stores the DIF
 * registers the program uses into the frame's register file, calls
 * dif_jit_callout(st, dp, pc, regs) (dif/dif_jit.h), reloads them and
 * %r0's zero, and leaves through the common exit with the call-out's
 * fault code if it returned one (the fault itself is recorded by then).
 * Which registers an instruction reads and writes comes from the opcode
 * table (dif_opinfo), as the validator has them.
 *
 * Faults.  Division faults inline: a zero divisor jumps to a stub after
 * the code that records (DIVZERO, pc, 0) in st->ds_fault and returns
 * DIF_FAULT_DIVZERO.  INT64_MIN / -1 never reaches idiv (it would trap):
 * a divisor of -1 gives 0 - a, and remainder 0, as dif_sdiv/dif_srem do.
 * Everything else that can fault is a call-out.  On entry the code clears
 * the fault code and the tuple stack, and on every exit the tuple stack,
 * as dif_emulate does.
 *
 * Safety.  Any opcode without an inline translation or a call-out, a
 * branch that is not forward and inside the program, a setx index outside
 * the integer table, or a write to %r0 makes the translation fail, and the
 * DIFO stays on the interpreter.  The code is bounded by the DIFO's length
 * (at most JIT_MAXLEN bytes per instruction, checked against cap).
 *
 * Tests: tests/dif/ (every vector) through the JIT (make dif-check), self-tests jit_*
 *        (tests/kernel/jit_selftest.c), tests/d/jit, make difffuzz
 */
#include "dif/dif_jit.h"

enum { RAX = 0, RCX = 1, RDX = 2, RBX = 3, RSP = 4, RSI = 6, RDI = 7,
       R8 = 8, R12 = 12, R13 = 13, R14 = 14, R15 = 15 };

#define JIT_MAXLEN 160           /* bytes one DIF instruction can take (a call-out) */

/* The frame (see above) and the state's fields the code touches. */
#define FR_REGS 0
#define FR_CA 64
#define FR_CB 72
#define FR_RVAL 80
#define ST_ARGS ((int32_t)__builtin_offsetof(dif_state_t, ds_args))
#define ST_FAULT ((int32_t)__builtin_offsetof(dif_state_t, ds_fault))
#define ST_NTUPLES ((int32_t)__builtin_offsetof(dif_state_t, ds_ntuples))
#define JIT_MAXINSNS 4096        /* longer DIFOs stay on the interpreter */

static const uint8_t jit_reg[DIF_NREGS] = { 8, 9, 10, 11, RBX, R12, R13, R14 };

struct jit_fixup {
	uint32_t site;                     /* where the rel32 is */
	uint32_t to;                       /* branch: the DIF label; fault: the faulting pc */
};

struct jit {
	uint8_t *buf;
	size_t n, cap;
	uint32_t at[JIT_MAXINSNS + 1];     /* native offset of each DIF instruction */
	struct jit_fixup br[JIT_MAXINSNS]; /* branches to patch */
	uint32_t nbr;
	struct jit_fixup flt[JIT_MAXINSNS];/* jumps to fault stubs */
	uint32_t nflt;
	uint32_t out[JIT_MAXINSNS];        /* jnz sites to the common exit (call-out faults) */
	uint32_t nout;
	bool callouts;                     /* some instruction calls out */
	uint8_t used;                      /* DIF registers the program names */
	uint32_t fsize;                    /* bytes of the frame below the saved registers */
	int stb;                           /* the state's register: r15, or rdi without call-outs */
	bool keep_cc;                      /* some branch reloads the condition pair */
	int32_t ca, cb;                    /* where the pair is in the frame */
	uint8_t target[JIT_MAXINSNS];      /* 1: some branch lands here */
	uint32_t frame;                    /* bytes pushed below the return address */
	uint8_t saved[4];                  /* callee-saved registers pushed, in order */
	int nsaved;
};

/* ---- bytes ---- */

static void b1(struct jit *j, uint8_t v)
{
	if (j->n < j->cap)
		j->buf[j->n] = v;
	j->n++;
}

static void b4(struct jit *j, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b1(j, (uint8_t)(v >> (8 * i)));
}

static void put4(struct jit *j, uint32_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		if (at + (uint32_t)i < j->cap)
			j->buf[at + (uint32_t)i] = (uint8_t)(v >> (8 * i));
}

/* REX.W with the reg and r/m extension bits, then opcode bytes and modrm (register direct). */
static void op_rr(struct jit *j, uint8_t op, int reg, int rm)
{
	b1(j, (uint8_t)(0x48 | (reg >= 8 ? 4 : 0) | (rm >= 8 ? 1 : 0)));
	b1(j, op);
	b1(j, (uint8_t)(0xc0 | ((reg & 7) << 3) | (rm & 7)));
}

/* modrm (and SIB, displacement) for [base + disp]; base any register. */
static void modrm_mem(struct jit *j, int reg, int base, int32_t disp)
{
	bool d8 = disp >= -128 && disp <= 127;

	b1(j, (uint8_t)((d8 ? 0x40 : 0x80) | ((reg & 7) << 3) | (base & 7)));
	if ((base & 7) == RSP)
		b1(j, 0x24);
	if (d8)
		b1(j, (uint8_t)disp);
	else
		b4(j, (uint32_t)disp);
}

/* op reg, [base + disp] or op [base + disp], reg, 64 bits. */
static void op_rm(struct jit *j, uint8_t op, int reg, int base, int32_t disp)
{
	b1(j, (uint8_t)(0x48 | (reg >= 8 ? 4 : 0) | (base >= 8 ? 1 : 0)));
	b1(j, op);
	modrm_mem(j, reg, base, disp);
}

/* mov dword or qword (sign-extended) [base + disp], imm32. */
static void mov_mem_imm(struct jit *j, bool wide, int base, int32_t disp, uint32_t imm)
{
	if (wide || base >= 8)
		b1(j, (uint8_t)((wide ? 0x48 : 0x40) | (base >= 8 ? 1 : 0)));
	b1(j, 0xc7);
	modrm_mem(j, 0, base, disp);
	b4(j, imm);
}

static void mov_rr(struct jit *j, int dst, int src)
{
	if (dst != src)
		op_rr(j, 0x89, src, dst);
}

static void mov_imm(struct jit *j, int dst, uint64_t v)
{
	if (v <= 0xffffffffu) {              /* mov r32, imm32 zero-extends */
		if (dst >= 8)
			b1(j, 0x41);
		b1(j, (uint8_t)(0xb8 + (dst & 7)));
		b4(j, (uint32_t)v);
		return;
	}
	b1(j, (uint8_t)(0x48 | (dst >= 8 ? 1 : 0)));
	b1(j, (uint8_t)(0xb8 + (dst & 7)));
	b4(j, (uint32_t)v);
	b4(j, (uint32_t)(v >> 32));
}

static void push_pop(struct jit *j, int r, bool push)
{
	if (r >= 8)
		b1(j, 0x41);
	b1(j, (uint8_t)((push ? 0x50 : 0x58) + (r & 7)));
}

/* jmp or jcc rel32 to DIF instruction label (patched at the end). */
static void jump(struct jit *j, uint8_t cc, uint32_t label)
{
	if (cc == 0) {
		b1(j, 0xe9);
	} else {
		b1(j, 0x0f);
		b1(j, cc);
	}
	if (j->nbr < JIT_MAXINSNS)
		j->br[j->nbr++] = (struct jit_fixup){ (uint32_t)j->n, label };
	b4(j, 0);
}

/* jz to the fault stub of instruction pc. */
static void jz_fault(struct jit *j, uint32_t pc)
{
	b1(j, 0x0f);
	b1(j, 0x84);
	if (j->nflt < JIT_MAXINSNS)
		j->flt[j->nflt++] = (struct jit_fixup){ (uint32_t)j->n, pc };
	b4(j, 0);
}

/* ---- frame ---- */

/*
 * The frame.  Without call-outs the code needs no r15 (rdi stays the
 * state, rsi the rval pointer) and keeps the condition pair in a 16-byte
 * frame only if some branch reloads it; with call-outs, the whole frame.
 */
static void prologue(struct jit *j, uint8_t used)
{
	if (j->callouts)
		push_pop(j, R15, true);
	for (int d = 4; d < DIF_NREGS; d++)   /* DIF %r4..%r7: rbx r12 r13 r14 */
		if (used & (1u << d)) {
			j->saved[j->nsaved++] = jit_reg[d];
			push_pop(j, jit_reg[d], true);
		}
	j->stb = j->callouts ? R15 : RDI;
	j->ca = j->callouts ? FR_CA : 0;
	j->cb = j->ca + 8;
	if (j->callouts)
		j->fsize = j->nsaved % 2 == 0 ? 96 : 88;   /* rsp 16-aligned at a call-out */
	else
		j->fsize = j->keep_cc ? 16 : 0;
	if (j->fsize != 0) {
		b1(j, 0x48); b1(j, 0x81); b1(j, 0xec); b4(j, j->fsize);  /* sub rsp, fsize */
	}
	if (j->callouts) {
		mov_rr(j, R15, RDI);                /* r15 = st */
		op_rm(j, 0x89, RSI, RSP, FR_RVAL);  /* the rval pointer */
	}
	op_rr(j, 0x31, R8, R8);                 /* xor r8, r8: %r0 */
	if (j->fsize != 0) {
		op_rm(j, 0x89, R8, RSP, j->ca);     /* cc pair (0, 0) */
		op_rm(j, 0x89, R8, RSP, j->cb);
	}
	for (int d = 1; d < DIF_NREGS; d++)
		if (used & (1u << d))
			op_rr(j, 0x31, jit_reg[d], jit_reg[d]);
	mov_mem_imm(j, false, j->stb, ST_FAULT, 0);              /* no fault yet */
	if (j->callouts)
		mov_mem_imm(j, false, j->stb, ST_NTUPLES, 0);    /* an empty tuple stack */
}

/* The common exit: eax holds the status. */
static void epilogue(struct jit *j)
{
	if (j->callouts)
		mov_mem_imm(j, false, R15, ST_NTUPLES, 0);
	if (j->fsize != 0) {
		b1(j, 0x48); b1(j, 0x81); b1(j, 0xc4); b4(j, j->fsize);  /* add rsp, fsize */
	}
	for (int i = j->nsaved - 1; i >= 0; i--)
		push_pop(j, j->saved[i], false);
	if (j->callouts)
		push_pop(j, R15, false);
	b1(j, 0xc3);
}

/* ---- instructions ---- */

/* rd = r1 op r2 through rax (any of them may be the same register). */
static void alu(struct jit *j, uint8_t op, dif_instr_t in)
{
	mov_rr(j, RAX, jit_reg[DIF_INSTR_R1(in)]);
	if (op == 0xaf) {                        /* imul rax, r2 */
		b1(j, (uint8_t)(0x48 | (jit_reg[DIF_INSTR_R2(in)] >= 8 ? 1 : 0)));
		b1(j, 0x0f);
		b1(j, 0xaf);
		b1(j, (uint8_t)(0xc0 | (jit_reg[DIF_INSTR_R2(in)] & 7)));
	} else {
		op_rr(j, op, jit_reg[DIF_INSTR_R2(in)], RAX);
	}
	mov_rr(j, jit_reg[DIF_INSTR_RD(in)], RAX);
}

/* rd = r1 shifted by r2 & 63 (ext: /4 shl, /5 shr, /7 sar; the CPU masks the count). */
static void shift(struct jit *j, int ext, dif_instr_t in)
{
	mov_rr(j, RCX, jit_reg[DIF_INSTR_R2(in)]);
	mov_rr(j, RAX, jit_reg[DIF_INSTR_R1(in)]);
	op_rr(j, 0xd3, ext, RAX);
	mov_rr(j, jit_reg[DIF_INSTR_RD(in)], RAX);
}

/* sdiv srem udiv urem, with the interpreter's divide-by-zero fault and -1 rule. */
static void divide(struct jit *j, dif_instr_t in, uint32_t pc, bool sign, bool rem)
{
	int a = jit_reg[DIF_INSTR_R1(in)], b = jit_reg[DIF_INSTR_R2(in)];
	int d = jit_reg[DIF_INSTR_RD(in)];

	op_rr(j, 0x85, b, b);                    /* test b, b */
	jz_fault(j, pc);
	mov_rr(j, RAX, a);
	if (sign) {
		op_rr(j, 0x83, 7, b);                /* cmp b, -1 (the imm8 follows the modrm) */
		b1(j, 0xff);
		b1(j, 0x75);                         /* jne +k: the real division */
		uint32_t at = (uint32_t)j->n;
		b1(j, 0);
		if (rem)
			op_rr(j, 0x31, RAX, RAX);        /* x % -1 = 0 */
		else
			op_rr(j, 0xf7, 3, RAX);          /* neg rax: x / -1 = 0 - x */
		b1(j, 0xeb);                         /* jmp over the division */
		uint32_t at2 = (uint32_t)j->n;
		b1(j, 0);
		if (at < j->cap)
			j->buf[at] = (uint8_t)(j->n - at - 1);
		b1(j, 0x48);
		b1(j, 0x99);                         /* cqo */
		op_rr(j, 0xf7, 7, b);                /* idiv b */
		if (rem)
			mov_rr(j, RAX, RDX);
		if (at2 < j->cap)
			j->buf[at2] = (uint8_t)(j->n - at2 - 1);
	} else {
		b1(j, 0x31);
		b1(j, 0xd2);                         /* xor edx, edx */
		op_rr(j, 0xf7, 6, b);                /* div b */
		if (rem)
			mov_rr(j, RAX, RDX);
	}
	mov_rr(j, d, RAX);
}

/* The x86 condition (second opcode byte of jcc rel32) for a DIF branch. */
static uint8_t jcc_of(unsigned op)
{
	switch (op) {
	case DIF_OP_BE: return 0x84;
	case DIF_OP_BNE: return 0x85;
	case DIF_OP_BG: return 0x8f;
	case DIF_OP_BGU: return 0x87;
	case DIF_OP_BGE: return 0x8d;
	case DIF_OP_BGEU: return 0x83;
	case DIF_OP_BL: return 0x8c;
	case DIF_OP_BLU: return 0x82;
	case DIF_OP_BLE: return 0x8e;
	case DIF_OP_BLEU: return 0x86;
	default: return 0;
	}
}

/* Are the flags of the last cmp/tst still live at pc (straight-line from it)? */
static bool flags_live(const struct jit *j, const dif_difo_t *dp, uint32_t pc)
{
	for (; pc > 0 && !j->target[pc]; pc--) {
		unsigned prev = DIF_INSTR_OP(dp->dd_insns[pc - 1]);
		if (prev == DIF_OP_CMP || prev == DIF_OP_TST)
			return true;
		if (jcc_of(prev) == 0)
			return false;                    /* a conditional branch leaves the flags alone */
	}
	return false;
}

/* Which fields of op's instruction are registers: 1 R1, 2 R2, 4 RD (written). */
static unsigned reg_fields(unsigned op)
{
	switch (op) {
	case DIF_OP_ADD: case DIF_OP_SUB: case DIF_OP_MUL: case DIF_OP_AND: case DIF_OP_OR:
	case DIF_OP_XOR: case DIF_OP_SHL: case DIF_OP_SRL: case DIF_OP_SRA:
	case DIF_OP_SDIV: case DIF_OP_UDIV: case DIF_OP_SREM: case DIF_OP_UREM:
		return 7;
	case DIF_OP_NOT: case DIF_OP_MOV: return 5;
	case DIF_OP_CMP: return 3;
	case DIF_OP_TST: return 1;
	case DIF_OP_SETX: case DIF_OP_SETS: case DIF_OP_LDGS: return 4;
	default: return 0;                       /* branches, nop; ret reads RD (checked there) */
	}
}

/* Register fields in range, and %r0 never written. */
static bool regs_ok(dif_instr_t in)
{
	unsigned f = reg_fields(DIF_INSTR_OP(in));

	if (((f & 1) && DIF_INSTR_R1(in) >= DIF_NREGS) || ((f & 2) && DIF_INSTR_R2(in) >= DIF_NREGS))
		return false;
	if (DIF_INSTR_OP(in) == DIF_OP_RET)
		return DIF_INSTR_RD(in) < DIF_NREGS;
	return !(f & 4) || (DIF_INSTR_RD(in) != 0 && DIF_INSTR_RD(in) < DIF_NREGS);
}

/* Is op one the code does inline (everything else is a call-out)? */
static bool inline_op(unsigned op)
{
	return reg_fields(op) != 0 || op == DIF_OP_BA || jcc_of(op) != 0 || op == DIF_OP_NOP ||
	       op == DIF_OP_RET || op == DIF_OP_SETS;
}

/* callout_regs: the registers a call-out instruction names (R and W roles); false if %r0 is written. */
static bool callout_regs(dif_instr_t in, uint8_t *mask)
{
	const dif_opinfo_t *oi = dif_opinfo(DIF_INSTR_OP(in));
	unsigned field[3] = { DIF_INSTR_R1(in), DIF_INSTR_R2(in), DIF_INSTR_RD(in) };

	*mask = 0;
	if (oi == NULL)
		return false;
	for (int k = 0; k < 3; k++) {
		if (oi->oi_role[k] != DIF_ROLE_R && oi->oi_role[k] != DIF_ROLE_W)
			continue;
		if (field[k] >= DIF_NREGS || (oi->oi_role[k] == DIF_ROLE_W && field[k] == 0))
			return false;
		*mask |= (uint8_t)(1u << field[k]);
	}
	return true;
}

/*
 * callout: instruction pc through dif_jit_callout: the used registers into
 * the frame's register file, the call, the registers back (the one written
 * among them), %r0 zeroed again, and a fault to the common exit.
 */
static bool callout(struct jit *j, const dif_difo_t *dp, uint32_t pc)
{
	uint8_t mask;

	if (!callout_regs(dp->dd_insns[pc], &mask))
		return false;
	for (int d = 0; d < DIF_NREGS; d++)
		if (d == 0 || (j->used & (1u << d)))
			op_rm(j, 0x89, jit_reg[d], RSP, FR_REGS + 8 * d);
	mov_rr(j, RDI, R15);
	mov_imm(j, RSI, (uint64_t)(uintptr_t)dp);
	mov_imm(j, RDX, pc);
	mov_rr(j, RCX, RSP);
	mov_imm(j, RAX, (uint64_t)(uintptr_t)dif_jit_callout);
	b1(j, 0xff);
	b1(j, 0xd0);                             /* call rax */
	op_rr(j, 0x31, R8, R8);
	for (int d = 1; d < DIF_NREGS; d++)
		if (j->used & (1u << d))
			op_rm(j, 0x8b, jit_reg[d], RSP, FR_REGS + 8 * d);
	b1(j, 0x85);
	b1(j, 0xc0);                             /* test eax, eax */
	b1(j, 0x0f);
	b1(j, 0x85);                             /* jnz the common exit */
	if (j->nout < JIT_MAXINSNS)
		j->out[j->nout++] = (uint32_t)j->n;
	b4(j, 0);
	return true;
}

/* One DIF instruction; false if it is not one the JIT translates. */
static bool jit_insn(struct jit *j, const dif_difo_t *dp, uint32_t pc)
{
	dif_instr_t in = dp->dd_insns[pc];
	unsigned op = DIF_INSTR_OP(in);
	int rd = jit_reg[DIF_INSTR_RD(in) & 7];
	int r1 = jit_reg[DIF_INSTR_R1(in) & 7];

	if (!regs_ok(in))
		return false;
	switch (op) {
	case DIF_OP_ADD: alu(j, 0x01, in); return true;
	case DIF_OP_SUB: alu(j, 0x29, in); return true;
	case DIF_OP_MUL: alu(j, 0xaf, in); return true;
	case DIF_OP_AND: alu(j, 0x21, in); return true;
	case DIF_OP_OR:  alu(j, 0x09, in); return true;
	case DIF_OP_XOR: alu(j, 0x31, in); return true;
	case DIF_OP_SHL: shift(j, 4, in); return true;
	case DIF_OP_SRL: shift(j, 5, in); return true;
	case DIF_OP_SRA: shift(j, 7, in); return true;
	case DIF_OP_SDIV: divide(j, in, pc, true, false); return true;
	case DIF_OP_SREM: divide(j, in, pc, true, true); return true;
	case DIF_OP_UDIV: divide(j, in, pc, false, false); return true;
	case DIF_OP_UREM: divide(j, in, pc, false, true); return true;
	case DIF_OP_NOT:
		mov_rr(j, rd, r1);
		op_rr(j, 0xf7, 2, rd);
		return true;
	case DIF_OP_MOV: mov_rr(j, rd, r1); return true;
	case DIF_OP_CMP: case DIF_OP_TST: {
		int b = op == DIF_OP_TST ? R8 : jit_reg[DIF_INSTR_R2(in) & 7];
		if (j->fsize != 0) {
			op_rm(j, 0x89, r1, RSP, j->ca);
			op_rm(j, 0x89, b, RSP, j->cb);
		}
		op_rr(j, 0x39, b, r1);                /* cmp a, b: flags of a - b */
		return true;
	}
	case DIF_OP_BA:
		jump(j, 0, DIF_INSTR_LABEL(in));
		return true;
	case DIF_OP_BE: case DIF_OP_BNE: case DIF_OP_BG: case DIF_OP_BGU: case DIF_OP_BGE:
	case DIF_OP_BGEU: case DIF_OP_BL: case DIF_OP_BLU: case DIF_OP_BLE: case DIF_OP_BLEU:
		if (!flags_live(j, dp, pc)) {
			op_rm(j, 0x8b, RAX, RSP, j->ca); /* mov rax, ca */
			op_rm(j, 0x3b, RAX, RSP, j->cb); /* cmp rax, cb */
		}
		jump(j, jcc_of(op), DIF_INSTR_LABEL(in));
		return true;
	case DIF_OP_SETX:
		if (DIF_INSTR_INDEX(in) >= dp->dd_nints)
			return false;                    /* the interpreter's ILLOP */
		mov_imm(j, rd, dp->dd_inttab[DIF_INSTR_INDEX(in)]);
		return true;
	case DIF_OP_LDGS: {
		uint32_t id = DIF_INSTR_INDEX(in);
		if (id < DIF_VAR_ARG0 || id > DIF_VAR_ARG9)
			return callout(j, dp, pc);       /* other built-ins: the environment's */
		op_rm(j, 0x8b, rd, j->stb, ST_ARGS + (int32_t)(8 * (id - DIF_VAR_ARG0)));
		return true;
	}
	case DIF_OP_SETS:                        /* the string table's address, as the interpreter's */
		mov_imm(j, rd, (uint64_t)(uintptr_t)dp->dd_strtab + DIF_INSTR_INDEX(in));
		return true;
	case DIF_OP_NOP:
		return true;
	case DIF_OP_RET:
		if (j->callouts) {
			op_rm(j, 0x8b, RAX, RSP, FR_RVAL);   /* rax = rval */
			op_rm(j, 0x89, rd, RAX, 0);          /* *rval = rd */
		} else {
			op_rm(j, 0x89, rd, RSI, 0);
		}
		b1(j, 0x31);
		b1(j, 0xc0);                         /* xor eax, eax */
		epilogue(j);
		return true;
	default:
		return callout(j, dp, pc);
	}
}

/* First pass: branch targets (forward, inside), registers used; false if not translatable. */
static bool jit_scan(struct jit *j, const dif_difo_t *dp, uint8_t *used)
{
	uint32_t n = dp->dd_ninsns;

	*used = 0;
	if (n == 0 || n > JIT_MAXINSNS || DIF_INSTR_OP(dp->dd_insns[n - 1]) != DIF_OP_RET)
		return false;
	for (uint32_t pc = 0; pc < n; pc++) {
		dif_instr_t in = dp->dd_insns[pc];
		unsigned op = DIF_INSTR_OP(in);
		if (op == DIF_OP_BA || jcc_of(op) != 0) {
			uint32_t l = DIF_INSTR_LABEL(in);
			if (l <= pc || l >= n)
				return false;
			j->target[l] = 1;
			continue;
		}
		if (!inline_op(op) || (op == DIF_OP_LDGS && (DIF_INSTR_INDEX(in) < DIF_VAR_ARG0 ||
		    DIF_INSTR_INDEX(in) > DIF_VAR_ARG9))) {
			uint8_t mask;
			if (!callout_regs(in, &mask))
				return false;
			*used |= mask;
			j->callouts = true;
			continue;
		}
		unsigned f = reg_fields(op) | (op == DIF_OP_RET ? 4 : 0);
		if (f & 1)
			*used |= (uint8_t)(1u << (DIF_INSTR_R1(in) & 7));
		if (f & 2)
			*used |= (uint8_t)(1u << (DIF_INSTR_R2(in) & 7));
		if (f & 4)
			*used |= (uint8_t)(1u << (DIF_INSTR_RD(in) & 7));
	}
	return true;
}

/*
 * The exits after the code: the common one a call-out's fault takes (eax
 * holds its code), then the division stubs, each recording (DIVZERO, pc,
 * 0) in st->ds_fault; then patch every rel32.
 */
static void jit_finish(struct jit *j)
{
	if (j->nout > 0) {
		for (uint32_t i = 0; i < j->nout; i++)
			put4(j, j->out[i], (uint32_t)(j->n - (j->out[i] + 4)));
		epilogue(j);
	}
	for (uint32_t i = 0; i < j->nflt; i++) {
		put4(j, j->flt[i].site, (uint32_t)(j->n - (j->flt[i].site + 4)));
		mov_mem_imm(j, false, j->stb, ST_FAULT, DIF_FAULT_DIVZERO);
		mov_mem_imm(j, false, j->stb, ST_FAULT + 4, j->flt[i].to);
		mov_mem_imm(j, true, j->stb, ST_FAULT + 8, 0);
		b1(j, 0xb8);
		b4(j, DIF_FAULT_DIVZERO);            /* mov eax, DIVZERO */
		epilogue(j);
	}
	for (uint32_t i = 0; i < j->nbr; i++)
		put4(j, j->br[i].site, j->at[j->br[i].to] - (j->br[i].site + 4));
}

size_t dif_jit_translate(const dif_difo_t *dp, uint8_t *buf, size_t cap)
{
	static struct jit jit_state;             /* large: callers serialise (enabling, tests) */
	struct jit *j = &jit_state;
	uint8_t used;

	__builtin_memset(j, 0, sizeof(*j));
	j->buf = buf;
	j->cap = cap;
	if (!jit_scan(j, dp, &used))
		return 0;
	j->used = used;
	for (uint32_t pc = 0; pc < dp->dd_ninsns; pc++)
		if (jcc_of(DIF_INSTR_OP(dp->dd_insns[pc])) != 0 && !flags_live(j, dp, pc))
			j->keep_cc = true;
	prologue(j, used);
	for (uint32_t pc = 0; pc < dp->dd_ninsns; pc++) {
		j->at[pc] = (uint32_t)j->n;
		if (!jit_insn(j, dp, pc) || j->n + JIT_MAXLEN > cap)
			return 0;
	}
	jit_finish(j);
	return j->n <= cap && j->nbr < JIT_MAXINSNS && j->nflt < JIT_MAXINSNS &&
	       j->nout < JIT_MAXINSNS ? j->n : 0;
}

bool dif_jit_plain(const dif_difo_t *dp)
{
	for (uint32_t pc = 0; pc < dp->dd_ninsns; pc++) {
		dif_instr_t in = dp->dd_insns[pc];
		unsigned op = DIF_INSTR_OP(in);
		if (!inline_op(op) || (op == DIF_OP_LDGS && (DIF_INSTR_INDEX(in) < DIF_VAR_ARG0 ||
		    DIF_INSTR_INDEX(in) > DIF_VAR_ARG9)))
			return false;
	}
	return true;
}
