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
 * is zeroed on entry and never written (a DIFO that writes %r0 is not
 * translated), and every other DIF register starts at 0, as in the
 * interpreter.  rdi holds args, rsi rval; rax, rcx and rdx are scratch
 * (division, shift counts).  The frame: the callee-saved registers the
 * program uses, then fpc at [rsp+16] and the condition codes at [rsp]
 * and [rsp+8].
 *
 * Condition codes.  As in the interpreter, "cmp a, b" keeps the pair
 * (a, b) and each branch asks its own question (tst a is cmp a, 0).  cmp
 * stores the pair and also sets the flags; a branch right after a cmp, tst
 * or another conditional branch, and not itself a branch target, uses the
 * flags; any other conditional branch reloads the pair and compares again.
 * Flags therefore never need to survive an arithmetic instruction.
 *
 * Faults.  Only division can fault in the translated subset: a zero
 * divisor jumps to a stub after the code that stores the instruction's pc
 * in *fpc and returns DIF_FAULT_DIVZERO.  INT64_MIN / -1 never reaches
 * idiv (it would trap): a divisor of -1 gives 0 - a, and remainder 0, as
 * dif_sdiv/dif_srem do.
 *
 * Safety.  Only instructions listed in jit_insn() are translated; any other
 * opcode, a branch that is not forward and inside the program, a setx index
 * outside the integer table, or a write to %r0 makes the translation fail,
 * and the DIFO stays on the interpreter.  The code is bounded by the DIFO's
 * length (at most JIT_MAXLEN bytes per instruction, checked against cap).
 *
 * Tests: tests/dif/ (every vector) through the JIT (make dif-check), self-tests jit_*
 *        (tests/kernel/jit_selftest.c), tests/d/jit, make difffuzz
 */
#include "dif/dif_jit.h"

enum { RAX = 0, RCX = 1, RDX = 2, RBX = 3, RSP = 4, RSI = 6, RDI = 7,
       R8 = 8, R12 = 12, R13 = 13, R14 = 14 };

#define JIT_MAXLEN 64            /* bytes one DIF instruction can take */
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

/* op reg, [base + disp8] or [base + disp8], reg (base: rdi or rsp). */
static void op_rm(struct jit *j, uint8_t op, int reg, int base, int8_t disp)
{
	b1(j, (uint8_t)(0x48 | (reg >= 8 ? 4 : 0)));
	b1(j, op);
	b1(j, (uint8_t)(0x40 | ((reg & 7) << 3) | (base & 7)));
	if (base == RSP)
		b1(j, 0x24);
	b1(j, (uint8_t)disp);
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

static void prologue(struct jit *j, uint8_t used)
{
	for (int d = 4; d < DIF_NREGS; d++)   /* DIF %r4..%r7: rbx r12 r13 r14 */
		if (used & (1u << d)) {
			j->saved[j->nsaved++] = jit_reg[d];
			push_pop(j, jit_reg[d], true);
		}
	push_pop(j, RDX, true);                 /* fpc at [rsp + 16] */
	op_rr(j, 0x31, R8, R8);                 /* xor r8, r8: %r0 */
	b1(j, 0x48); b1(j, 0x83); b1(j, 0xec); b1(j, 16);       /* sub rsp, 16 */
	op_rm(j, 0x89, R8, RSP, 0);             /* cc pair (0, 0) */
	op_rm(j, 0x89, R8, RSP, 8);
	for (int d = 1; d < DIF_NREGS; d++)
		if (used & (1u << d))
			op_rr(j, 0x31, jit_reg[d], jit_reg[d]);
}

/* The common exit: eax holds the status. */
static void epilogue(struct jit *j)
{
	b1(j, 0x48); b1(j, 0x83); b1(j, 0xc4); b1(j, 24);       /* add rsp, 24 */
	for (int i = j->nsaved - 1; i >= 0; i--)
		push_pop(j, j->saved[i], false);
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
	case DIF_OP_SETX: case DIF_OP_LDGS: return 4;
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
		op_rm(j, 0x89, r1, RSP, 0);
		op_rm(j, 0x89, b, RSP, 8);
		op_rr(j, 0x39, b, r1);                /* cmp a, b: flags of a - b */
		return true;
	}
	case DIF_OP_BA:
		jump(j, 0, DIF_INSTR_LABEL(in));
		return true;
	case DIF_OP_BE: case DIF_OP_BNE: case DIF_OP_BG: case DIF_OP_BGU: case DIF_OP_BGE:
	case DIF_OP_BGEU: case DIF_OP_BL: case DIF_OP_BLU: case DIF_OP_BLE: case DIF_OP_BLEU:
		if (!flags_live(j, dp, pc)) {
			op_rm(j, 0x8b, RAX, RSP, 0);     /* mov rax, ca */
			op_rm(j, 0x3b, RAX, RSP, 8);     /* cmp rax, cb */
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
			return false;                    /* other built-ins: the environment's */
		op_rm(j, 0x8b, rd, RDI, (int8_t)(8 * (id - DIF_VAR_ARG0)));
		return true;
	}
	case DIF_OP_NOP:
		return true;
	case DIF_OP_RET:
		op_rm(j, 0x89, rd, RSI, 0);          /* *rval = rd (rsi: no SIB) */
		b1(j, 0x31);
		b1(j, 0xc0);                         /* xor eax, eax */
		epilogue(j);
		return true;
	default:
		return false;
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

/* The fault stubs: *fpc = pc, return DIVZERO; then patch every rel32. */
static void jit_finish(struct jit *j)
{
	for (uint32_t i = 0; i < j->nflt; i++) {
		put4(j, j->flt[i].site, (uint32_t)(j->n - (j->flt[i].site + 4)));
		op_rm(j, 0x8b, RAX, RSP, 16);        /* rax = fpc */
		b1(j, 0xc7);
		b1(j, 0x00);                         /* mov dword [rax], pc */
		b4(j, j->flt[i].to);
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
	prologue(j, used);
	for (uint32_t pc = 0; pc < dp->dd_ninsns; pc++) {
		j->at[pc] = (uint32_t)j->n;
		if (!jit_insn(j, dp, pc) || j->n + JIT_MAXLEN > cap)
			return 0;
	}
	jit_finish(j);
	return j->n <= cap && j->nbr < JIT_MAXINSNS && j->nflt < JIT_MAXINSNS ? j->n : 0;
}
