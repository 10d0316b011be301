/*
 * pid_isa.c - the x86_64 half of the pid provider: which user instructions
 * can be probed, replaying them after the trap, uregs[] and ustack().
 *
 * A probed instruction's first byte is int3 in the process's private copy
 * of the text page (trace/prov_pid.c plants it with arch_user_text_poke).
 * The trap arrives here from trap.c with the user's registers in the trap
 * frame at the top of the thread's kernel stack; tf_rip is one past the
 * int3.  After pid_invop() has fired the probes, the displaced instruction
 * is replayed in one of two ways (pid_isa_decode chooses, once, when the
 * site is made):
 *
 *   emulated   push reg, mov %rsp,%rbp, mov $imm32, nop, ret, jmp rel,
 *              call rel, jcc rel: the kernel does what the instruction does, to the
 *              frame's registers and, through the guarded copies, to the
 *              user stack.  If the user stack is bad, the process dies of
 *              SIGSEGV exactly as the instruction would have killed it.
 *   stepped    anything else that falls through (or jumps indirectly):
 *              the instruction is copied to the process's scratch page
 *              (PID_SCRATCH_VA, user read+execute, written through the
 *              kernel's mapping), its %rip-relative displacement adjusted
 *              for the copy's address, followed by `jmp` back to the next
 *              instruction; the process resumes at the copy.  A process
 *              has one thread, so one slot at the page's start is enough:
 *              it is rewritten at each hit, before the resume.
 *
 * A `jmp rel` out of its function is a tail call (pid_isa_tailcall): the
 * function's return probe sits on it as on a `ret`, and fires before the
 * jump is emulated.
 *
 * Not probed at all (PID_HOW_NONE): int3 (the program's own breakpoints
 * keep raising SIGTRAP), system instructions, indirect calls, ret imm16,
 * loop/jrcxz.  Nothing here trusts user memory: every load and store is a
 * checked, fault-tolerant copy.
 *
 * Everything here runs with interrupts off (the trap is an interrupt gate)
 * except the one allocation of the scratch page; the file is in the
 * notrace region (linker.ld).
 *
 * Tests: tests/d/pid, tests/e2e/test_pid.py
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "arch/x86_64/x86_decode.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/pid_isa.h"
#include "kernel/proc.h"
#include "kernel/thread.h"

#define PID_SCRATCH_VA 0x7fff0000UL      /* below 2 GiB: rel32 reaches it from the text */
#define PID_SCRATCH_ORIG 2048            /* where in the page the copy's original address is kept */

static struct pid_trap *pid_cur[MAX_CPUS];   /* the trap being fired on each CPU (ustack at entry) */

/* ---- decoding ---- */

static bool is_nop(const uint8_t *p, const struct x86_insn *xi)
{
	return (xi->xi_len == 1 && p[0] == 0x90) || (xi->xi_map == 1 && xi->xi_opc == 0x1f);
}

static bool is_push_reg(const uint8_t *p, const struct x86_insn *xi)
{
	if (xi->xi_map != 0 || xi->xi_opc < 0x50 || xi->xi_opc > 0x57)
		return false;
	return xi->xi_len == 1 || (xi->xi_len == 2 && (p[0] & 0xf0) == 0x40);
}

static bool is_mov_rsp_rbp(const uint8_t *p, const struct x86_insn *xi)
{
	return xi->xi_len == 3 && p[0] == 0x48 && p[1] == 0x89 && p[2] == 0xe5;
}

/* is_mov_imm32: mov $imm32, %r32 (B8+r, no prefix): USDT's is-enabled sites become one. */
static bool is_mov_imm32(const uint8_t *p, const struct x86_insn *xi)
{
	return xi->xi_len == 5 && p[0] >= 0xb8 && p[0] <= 0xbf;
}

static bool is_jcc(const struct x86_insn *xi)
{
	return (xi->xi_map == 0 && xi->xi_opc >= 0x70 && xi->xi_opc <= 0x7f) ||
	       (xi->xi_map == 1 && xi->xi_opc >= 0x80 && xi->xi_opc <= 0x8f);
}

static enum pid_isa_how insn_how(const uint8_t *p, const struct x86_insn *xi)
{
	switch (xi->xi_kind) {
	case X86_RET: case X86_JMP: case X86_CALL:
		return PID_HOW_EMULATE;
	case X86_JCC:
		return is_jcc(xi) ? PID_HOW_EMULATE : PID_HOW_NONE;   /* loop, jrcxz: not probed */
	case X86_JMP_IND:
		return PID_HOW_STEP;
	case X86_OTHER:
		if (is_nop(p, xi) || is_push_reg(p, xi) || is_mov_rsp_rbp(p, xi) || is_mov_imm32(p, xi))
			return PID_HOW_EMULATE;
		return PID_HOW_STEP;
	default:
		return PID_HOW_NONE;         /* int3, system, call indirect, ret imm16 */
	}
}

int pid_isa_decode(const uint8_t *p, size_t avail, uint64_t addr, struct pid_isa_insn *pi)
{
	struct x86_insn xi;
	int n = x86_decode(p, avail, &xi);

	(void)addr;
	if (n < 0)
		return -1;
	memset(pi, 0, sizeof(*pi));
	pi->pi_len = (uint8_t)n;
	pi->pi_how = (uint8_t)insn_how(p, &xi);
	pi->pi_ret = xi.xi_kind == X86_RET;
	memcpy(pi->pi_bytes, p, (size_t)n);
	return n;
}

/* pid_isa_usdt: a 5-byte NOP (a probe site) or xor %eax,%eax + NOP (an is-enabled test, replayed as mov $1,%eax). */
bool pid_isa_usdt(const uint8_t *text, uint64_t addr, int kind, struct pid_isa_insn *pi)
{
	static const uint8_t nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	static const uint8_t xor_nop[5] = { 0x31, 0xc0, 0x0f, 0x1f, 0x00 };
	static const uint8_t mov_one[5] = { 0xb8, 0x01, 0x00, 0x00, 0x00 };   /* mov $1, %eax */

	if (memcmp(text, kind ? xor_nop : nop5, 5) != 0)
		return false;
	return pid_isa_decode(kind ? mov_one : nop5, 5, addr, pi) == 5;
}

/* ---- emulation ---- */

/* tf_gpr: the frame's slot for general register n (x86 numbering: rax, rcx, rdx, rbx, rsp, ...). */
static uint64_t *tf_gpr(struct trapframe *tf, int n)
{
	uint64_t *const regs[16] = { &tf->tf_rax, &tf->tf_rcx, &tf->tf_rdx, &tf->tf_rbx,
	                             &tf->tf_rsp, &tf->tf_rbp, &tf->tf_rsi, &tf->tf_rdi,
	                             &tf->tf_r8, &tf->tf_r9, &tf->tf_r10, &tf->tf_r11,
	                             &tf->tf_r12, &tf->tf_r13, &tf->tf_r14, &tf->tf_r15 };
	return regs[n & 15];
}

static bool emu_push(struct trapframe *tf, uint64_t v, uint64_t *bad)
{
	uint64_t sp = tf->tf_rsp - 8;

	if (arch_user_store(sp, &v, 8) != 0) {
		*bad = sp;
		return false;
	}
	tf->tf_rsp = sp;
	return true;
}

static bool emu_ret(struct trapframe *tf, uint64_t *bad)
{
	uint64_t ra;

	if (!arch_user_probe(tf->tf_rsp, 8) || arch_safe_read(&ra, (const void *)tf->tf_rsp, 8) != 0) {
		*bad = tf->tf_rsp;
		return false;
	}
	tf->tf_rip = ra;
	tf->tf_rsp += 8;
	return true;
}

/* jcc_taken: condition cc (the opcode's low nibble) of rflags. */
static bool jcc_taken(uint64_t fl, int cc)
{
	bool cf = fl & 1, zf = fl & 0x40, sf = fl & 0x80, of = fl & 0x800, pf = fl & 4;
	bool t;

	switch (cc >> 1) {
	case 0: t = of; break;
	case 1: t = cf; break;
	case 2: t = zf; break;
	case 3: t = cf || zf; break;
	case 4: t = sf; break;
	case 5: t = pf; break;
	case 6: t = sf != of; break;
	default: t = zf || sf != of; break;
	}
	return (cc & 1) ? !t : t;
}

/* branch_target: next + the instruction's rel8/rel32. */
static uint64_t branch_target(const struct pid_isa_insn *pi, const struct x86_insn *xi, uint64_t next)
{
	int64_t rel;

	if (xi->xi_relsize == 1) {
		rel = (int8_t)pi->pi_bytes[xi->xi_rel];
	} else {
		int32_t r32;
		memcpy(&r32, &pi->pi_bytes[xi->xi_rel], 4);
		rel = r32;
	}
	return next + (uint64_t)rel;
}

bool pid_isa_tailcall(const struct pid_isa_insn *pi, uint64_t addr, uint64_t lo, uint64_t hi)
{
	struct x86_insn xi;

	if (x86_decode(pi->pi_bytes, pi->pi_len, &xi) < 0 || xi.xi_kind != X86_JMP)
		return false;                            /* (an indirect jmp may be a switch's table) */
	uint64_t to = branch_target(pi, &xi, addr + pi->pi_len);
	return to < lo || to >= hi;
}

/* pid_emulate: do pi (at pc) to tf; false with the bad address in *bad if user memory refused. */
static bool pid_emulate(struct trapframe *tf, const struct pid_isa_insn *pi, uint64_t pc, uint64_t *bad)
{
	struct x86_insn xi;
	const uint8_t *p = pi->pi_bytes;
	uint64_t next = pc + pi->pi_len;

	x86_decode(p, pi->pi_len, &xi);
	tf->tf_rip = next;
	switch (xi.xi_kind) {
	case X86_RET:
		return emu_ret(tf, bad);
	case X86_JMP:
		tf->tf_rip = branch_target(pi, &xi, next);
		return true;
	case X86_CALL:
		tf->tf_rip = branch_target(pi, &xi, next);
		return emu_push(tf, next, bad);
	case X86_JCC:
		if (jcc_taken(tf->tf_rflags, xi.xi_opc & 15))
			tf->tf_rip = branch_target(pi, &xi, next);
		return true;
	default:
		break;
	}
	if (is_push_reg(p, &xi)) {
		int r = (xi.xi_opc & 7) | (pi->pi_len == 2 && (p[0] & 1) ? 8 : 0);
		return emu_push(tf, *tf_gpr(tf, r), bad);
	}
	if (is_mov_rsp_rbp(p, &xi))
		tf->tf_rbp = tf->tf_rsp;
	if (is_mov_imm32(p, &xi)) {
		uint32_t imm;
		memcpy(&imm, p + 1, 4);
		*tf_gpr(tf, p[0] & 7) = imm;         /* a 32-bit write zero-extends */
	}
	return true;                             /* nop */
}

/* ---- stepping out of line ---- */

/* step_build: pi's copy for the scratch slot at slot (then jmp back to pc + len) into buf. */
static bool step_build(uint8_t *buf, const struct pid_isa_insn *pi, uint64_t pc, uint64_t slot)
{
	struct x86_insn xi;
	int n = pi->pi_len;

	x86_decode(pi->pi_bytes, pi->pi_len, &xi);
	return x86_relocate(pi->pi_bytes, n, &xi, pc, slot, buf);
}

/* pid_step: resume tf at a copy of pi in the scratch page; false if the page cannot be had. */
static bool pid_step(struct trapframe *tf, const struct pid_isa_insn *pi, uint64_t pc)
{
	struct arch_as *as = curthread()->t_as;
	uint8_t *page = arch_user_scratch(as, PID_SCRATCH_VA, false);
	uint8_t buf[15 + 5];

	if (page == NULL) {                      /* first step in this process: map the page */
		arch_irq_enable();
		page = arch_user_scratch(as, PID_SCRATCH_VA, true);
		arch_irq_disable();
	}
	if (page == NULL || !step_build(buf, pi, pc, PID_SCRATCH_VA))
		return false;
	memcpy(page, buf, (size_t)pi->pi_len + 5);
	memcpy(page + PID_SCRATCH_ORIG, &pc, 8);  /* a fault in the copy is reported here */
	tf->tf_rip = PID_SCRATCH_VA;             /* iretq serialises: the new bytes are fetched */
	return true;
}

/* ---- the trap ---- */

static inline int trap_cpu_id(void)
{
	struct cpu *c;

	__asm__ volatile("movq %%gs:0, %0" : "=r"(c));
	return c->cpu_id;
}

static void __attribute__((noreturn)) pid_kill(int sig, uint64_t addr, uint64_t pc)
{
	arch_irq_enable();
	proc_fault(sig, addr, pc);
	__builtin_unreachable();
}

bool pid_isa_trap(struct trapframe *tf)
{
	struct proc *p = curproc();
	int cpu = trap_cpu_id();

	if (p == NULL)
		return false;
	struct pid_trap pt = { p->p_pid, curthread()->t_as, tf->tf_rip - 1, &tf->tf_rdi,
	                       (const uint64_t *)tf, tf->tf_rax, cpu, false, PID_FIRE_ALL };
	uint64_t resume = tf->tf_rip, bad = 0;

	tf->tf_rip = pt.pt_pc;                   /* uregs[R_PC] is the probed instruction */
	pid_cur[cpu] = &pt;
	const struct pid_isa_insn *pi = pid_invop(&pt);
	pid_cur[cpu] = NULL;
	if (pi == NULL) {
		tf->tf_rip = resume;                 /* the program's own int3: SIGTRAP as before */
		return false;
	}
	if (pi->pi_how == PID_HOW_EMULATE && !pid_emulate(tf, pi, pt.pt_pc, &bad))
		pid_kill(SIGSEGV, bad, pt.pt_pc);
	if (pi->pi_how == PID_HOW_STEP && !pid_step(tf, pi, pt.pt_pc))
		pid_kill(SIGKILL, PID_SCRATCH_VA, pt.pt_pc);
	return true;
}

uint64_t pid_isa_fault_pc(uint64_t pc)
{
	struct thread *t = curthread();
	uint64_t orig;

	if (pc < PID_SCRATCH_VA || pc >= PID_SCRATCH_VA + 15 || t->t_as == NULL)
		return pc;
	const uint8_t *page = arch_user_scratch(t->t_as, PID_SCRATCH_VA, false);
	if (page == NULL)
		return pc;
	memcpy(&orig, page + PID_SCRATCH_ORIG, 8);
	return orig;
}

/* ---- uregs[] and ustack() ---- */

#define UREG_CONST 0x8000                /* not a frame slot: the value is the low bits */

/* DTrace's R_* numbers (regs.d): 0..18 the i386 names, 19.. the amd64 set. */
static const uint16_t ureg_slot[] = {
#define TF(r) (uint16_t)(offsetof(struct trapframe, r) / 8)
	UREG_CONST | 0, UREG_CONST | 0, UREG_CONST | GDT_UDATA, UREG_CONST | GDT_UDATA,   /* gs fs es ds */
	TF(tf_rdi), TF(tf_rsi), TF(tf_rbp), TF(tf_rsp), TF(tf_rbx), TF(tf_rdx), TF(tf_rcx),
	TF(tf_rax), TF(tf_vector), TF(tf_err), TF(tf_rip), TF(tf_cs), TF(tf_rflags),
	TF(tf_rsp), TF(tf_ss),
	TF(tf_r15), TF(tf_r14), TF(tf_r13), TF(tf_r12), TF(tf_r11), TF(tf_r10), TF(tf_r9),
	TF(tf_r8), TF(tf_rdi), TF(tf_rsi), TF(tf_rbp), TF(tf_rbx), TF(tf_rdx), TF(tf_rcx),
	TF(tf_rax), TF(tf_vector), TF(tf_err), TF(tf_rip), TF(tf_cs), TF(tf_rflags),
	TF(tf_rsp), TF(tf_ss),
	UREG_CONST | 0, UREG_CONST | 0, UREG_CONST | GDT_UDATA, UREG_CONST | GDT_UDATA,   /* fs gs es ds */
#undef TF
};

bool pid_isa_uregs(uint64_t idx, uint64_t *val)
{
	const struct trapframe *tf = arch_user_regs();

	if (tf == NULL || idx >= ARRAY_SIZE(ureg_slot))
		return false;
	uint16_t s = ureg_slot[idx];
	*val = (s & UREG_CONST) ? (uint64_t)(s & ~UREG_CONST) : ((const uint64_t *)tf)[s];
	return true;
}

/* user_word: the 8 bytes at user address va, if mapped (no fault is taken). */
static bool user_word(uint64_t va, uint64_t *v)
{
	return (va & 7) == 0 && arch_user_probe(va, 8) && arch_safe_read(v, (const void *)va, 8) == 0;
}

int pid_isa_ustack(uint64_t *pcs, int max)
{
	const struct trapframe *tf = arch_user_regs();
	struct pid_trap *pt = pid_cur[trap_cpu_id()];
	uint64_t fp, ret;
	int n = 0;

	if (tf == NULL || max <= 0)
		return 0;
	pcs[n++] = tf->tf_rip;
	if (pt != NULL && pt->pt_entry && n < max && user_word(tf->tf_rsp, &ret))
		pcs[n++] = ret;                  /* at a function's entry: no frame yet, [rsp] is its caller */
	for (fp = tf->tf_rbp; n < max && fp != 0; ) {
		uint64_t frame[2];                   /* the saved %rbp, the return address */
		if ((fp & 7) != 0 || !arch_user_probe(fp, 16) || arch_safe_read(frame, (const void *)fp, 16) != 0 ||
		    frame[1] == 0)
			break;
		pcs[n++] = frame[1];
		if (frame[0] <= fp)
			break;                           /* the chain must climb: a loop ends here */
		fp = frame[0];
	}
	return n;
}
