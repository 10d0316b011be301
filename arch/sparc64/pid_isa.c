/*
 * pid_isa.c - the sparc64 half of the pid provider: which user instructions
 * can be probed, replaying them after the trap, uregs[] and ustack().
 *
 * A probed instruction's word becomes `ta 0x71` (ARCH_PID_TRAP) in the
 * process's own copy of the text page (trace/prov_pid.c plants it with
 * arch_user_text_poke, vm_user.c).  The trap arrives here from vm_user.c with
 * the user's %g and %o registers, %pc (the site), %npc and the condition
 * codes in the trap frame at the top of the thread's kernel stack; the
 * trap path has flushed the user's windows, so the current window's %l and
 * %i are in its save area at %sp + 2047 on the user's stack (read with
 * checked loads).  At a function's first instruction, before its `save`,
 * the arguments are in %o0..%o5: those are arg0..arg5.
 *
 * After pid_invop() has fired the probes, the displaced instruction is
 * replayed in one of two ways (pid_isa_decode chooses, once, when the site
 * is made).  Both rest on SPARC's two program counters: the kernel resumes
 * the process at any (%pc, %npc) pair.
 *
 *   emulated   the control transfers, which depend on where they are:
 *              call, jmpl (ret, retl, indirect calls), return, the
 *              branches Bicc, BPcc, BPr, FBfcc and FBPfcc (annulled or not,
 *              the delay slot then runs in place or is skipped; the %fcc
 *              come from the user's %fsr), rd %pc, and nop.
 *              The kernel computes the new (%pc, %npc) and the registers
 *              the instruction writes (%o7 for call; return's window
 *              restore: the caller's %o are the callee's %i, its %l and
 *              %i refill from its save area on the way out).
 *   stepped    everything else: the word is copied to the process's
 *              scratch page (PID_SCRATCH_VA, user read+execute, written
 *              through the direct map) and the process resumes at it with
 *              %npc the original %npc, so the next instruction is the one
 *              that would have followed (also inside a delay slot).  No
 *              jump back is needed.  A process has one thread, so one slot
 *              is enough: it is rewritten at each hit.
 *
 * Return probes sit on `ret`, `retl` and `return` (pi_ret), and on tail
 * calls: `call X` or `ba X` with `restore` in the delay slot, after which
 * X returns to the function's caller (is_tailcall_site).  Their delay
 * slot often computes the value (`ret; restore %o0, 1, %o0`, `return
 * %i7 + 8; add %o0, %o1, %o0`), so the probe fires after it: at the trap,
 * pid_invop fires only the site's other probes (PID_FIRE_BEFORE), the
 * return itself is emulated, and the delay-slot instruction runs from the
 * scratch page followed by `ta 0x72`; that second trap fires the return
 * probe (PID_FIRE_RETURN) with the result in %o0 (arg1) and resumes at the
 * return's target.  An offset probe on that delay slot fires before it runs
 * (its word in the text is never fetched then).  A return whose delay slot cannot run out of line gets
 * no return probe there (its offset probe stays).
 *
 * Not probed at all (PID_HOW_NONE): illtrap, privileged and window-management
 * instructions, traps other than `ta N` with an immediate N, the pid
 * traps themselves, and instructions that would write a %l or %i register
 * by emulation (jmpl or rd %pc into one: that register lives on the
 * user's stack here).  Nothing here trusts user memory: every load is a
 * checked copy; a replay that meets bad memory kills the process as the
 * instruction would have.
 *
 * uregs[] uses the R_* numbers of arch/sparc64/dlib/regs.d: %g0..%i7 are
 * 0..31, then %ccr, %pc, %npc, %y, %asi, %fprs.  ustack() walks the saved
 * %i6/%i7 chain from the trap frame's %sp; at an entry probe (before the
 * save) the caller is %o7, and at a return probe the return's target.
 *
 * The user's floating-point registers are saved before the probes fire and
 * loaded after: the kernel's own code uses them (pid_isa_trap).
 *
 * Everything here runs with interrupts off (the trap path) except the one
 * allocation of the scratch page; the file is in the notrace region.
 *
 * Tests: tests/d/pid (sparc64: python3 tools/dtest.py --arch sparc64 tests/d/pid),
 *        tests/e2e/test_sparc64_user.py (make sparc64-user-check)
 */
#include "arch/arch.h"
#include "arch/sparc64/sparc64.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/pid_isa.h"
#include "kernel/proc.h"
#include "kernel/thread.h"

#define PID_SCRATCH_VA  0x3ffe0000UL     /* one page below the kernel image's range */
#define PID_SCRATCH_DATA 4096            /* where in the page the kernel keeps its notes */
#define INSN_NOP        0x01000000u
#define INSN_TA_PID_RET 0x91d02072u      /* ta 0x72 */
#define TRAP_PID        0x71
#define TRAP_PID_RET    0x72

/* What the kernel notes in the scratch page (user-readable, never trusted: only the kernel writes it). */
struct pid_scratch {
	uint64_t sc_orig;            /* the original address of the word in slot 0 (fault reports) */
	uint64_t sc_ret_site;        /* a return in flight: its site, and where it goes */
	uint64_t sc_ret_target;
	uint64_t sc_ret_pending;
};

/* The trap being fired on each CPU (ustack at entry and return probes). */
static struct pid_trap *pid_cur[MAX_CPUS];
static uint64_t pid_cur_ret[MAX_CPUS];       /* at a return probe: the return's target */

/* ---- decoding ---- */

enum s64_kind { K_NONE, K_STEP, K_NOP, K_CALL, K_BRANCH, K_JMPL, K_RETURN, K_RDPC };

static uint32_t op_of(uint32_t w) { return w >> 30; }
static uint32_t op2_of(uint32_t w) { return (w >> 22) & 7; }
static uint32_t op3_of(uint32_t w) { return (w >> 19) & 0x3f; }
static int rd_of(uint32_t w) { return (int)((w >> 25) & 31); }
static int rs1_of(uint32_t w) { return (int)((w >> 14) & 31); }

/* branch_kind: Bicc, BPcc (%icc or %xcc), BPr, FBfcc and FBPfcc are emulated; illtrap is not probed. */
static enum s64_kind branch_kind(uint32_t w)
{
	switch (op2_of(w)) {
	case 1:                                          /* BPcc: cc1 cc0 = 00 icc, 10 xcc */
		return ((w >> 20) & 1) == 0 ? K_BRANCH : K_NONE;
	case 2:                                          /* Bicc */
		return K_BRANCH;
	case 3:                                          /* BPr: rcond 0 and 4 are reserved */
		return ((w >> 28) & 1) == 0 && ((w >> 25) & 3) != 0 ? K_BRANCH : K_NONE;
	case 4:                                          /* sethi */
		return w == INSN_NOP ? K_NOP : K_STEP;
	case 5: case 6:                                  /* FBPfcc, FBfcc (the %fcc of %fsr) */
		return K_BRANCH;
	default:
		return K_NONE;                               /* illtrap, and op2 7 */
	}
}

/* trap_steppable: `t<cond> N` with an immediate N (not the pid traps) may run out of line. */
static bool trap_steppable(uint32_t w)
{
	uint32_t n = w & 0x7f;

	return ((w >> 13) & 1) && rs1_of(w) == 0 && n != TRAP_PID && n != TRAP_PID_RET;
}

static enum s64_kind insn_kind(uint32_t w)
{
	if (op_of(w) == 1)
		return K_CALL;
	if (op_of(w) == 0)
		return branch_kind(w);
	if (op_of(w) == 3)
		return K_STEP;                               /* loads and stores */
	switch (op3_of(w)) {
	case 0x28:                                       /* rd %asr: %pc is asr 5 */
		if (rs1_of(w) != 5)
			return K_STEP;
		return rd_of(w) < 16 ? K_RDPC : K_NONE;
	case 0x38:                                       /* jmpl */
		return rd_of(w) < 16 ? K_JMPL : K_NONE;
	case 0x39:
		return K_RETURN;
	case 0x3a:
		return trap_steppable(w) ? K_STEP : K_NONE;
	case 0x2a: case 0x31: case 0x32: case 0x3e: case 0x3f:
		return K_NONE;                               /* rdpr, saved/restored, wrpr, done/retry */
	default:
		return K_STEP;                               /* arithmetic, save, restore, flushw, wr, flush */
	}
}

static uint32_t word_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* is_return_site: ret, retl (jmpl %i7/%o7 + 8, %g0) or return %i7 + 8. */
static bool is_return_site(uint32_t w)
{
	bool imm8 = ((w >> 13) & 1) && (w & 0x1fff) == 8;

	if (op_of(w) != 2 || !imm8)
		return false;
	if (op3_of(w) == 0x38)
		return rd_of(w) == 0 && (rs1_of(w) == 31 || rs1_of(w) == 15);
	return op3_of(w) == 0x39 && rs1_of(w) == 31;
}

/*
 * is_tailcall_site: `call X` or `ba X` (not annulled) with `restore` in its
 * delay slot: the function gives its window back and jumps, so X returns
 * straight to its caller (gcc's sibling call).
 */
static bool is_tailcall_site(uint32_t w, uint32_t d)
{
	bool restore = op_of(d) == 2 && op3_of(d) == 0x3d;
	bool ba = op_of(w) == 0 && (op2_of(w) == 1 || op2_of(w) == 2) && ((w >> 25) & 0xf) == 8 &&
	          ((w >> 29) & 1) == 0;

	return restore && (op_of(w) == 1 || ba);
}

bool pid_isa_tailcall(const struct pid_isa_insn *pi, uint64_t addr, uint64_t lo, uint64_t hi)
{
	(void)pi; (void)addr; (void)lo; (void)hi;
	return false;                /* pid_isa_decode marks them pi_ret: the probe fires after the restore */
}

int pid_isa_decode(const uint8_t *p, size_t avail, uint64_t addr, struct pid_isa_insn *pi)
{
	if (avail < 4 || (addr & 3) != 0)
		return -1;
	uint32_t w = word_at(p);
	enum s64_kind k = insn_kind(w);

	memset(pi, 0, sizeof(*pi));
	pi->pi_len = 4;
	memcpy(pi->pi_bytes, p, 4);
	pi->pi_how = k == K_NONE ? PID_HOW_NONE : k == K_STEP ? PID_HOW_STEP : PID_HOW_EMULATE;
	if (avail >= 8 && (is_return_site(w) || is_tailcall_site(w, word_at(p + 4)))) {
		uint32_t d = word_at(p + 4);
		enum s64_kind dk = insn_kind(d);
		if (dk == K_STEP || dk == K_NOP) {       /* the delay slot can run from the scratch page */
			memcpy(pi->pi_bytes + 4, p + 4, 4);
			pi->pi_ret = true;
		}
	}
	return 4;
}

/* pid_isa_usdt: a probe site is `nop`; an is-enabled site `clr %r` (or %g0, %g0, %r), replayed as `mov 1, %r`. */
bool pid_isa_usdt(const uint8_t *text, uint64_t addr, int kind, struct pid_isa_insn *pi)
{
	uint32_t w = word_at(text), one;
	uint8_t b[4];

	if (kind == 0)
		return w == INSN_NOP && pid_isa_decode(text, 4, addr, pi) == 4;
	if ((w & ~(31u << 25)) != 0x80100000u || rd_of(w) == 0 || rd_of(w) >= 16)
		return false;                               /* or %g0, %g0, %r into a %g or %o register */
	one = 0x80102001u | (uint32_t)rd_of(w) << 25;   /* or %g0, 1, %r */
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(one >> (24 - 8 * i));
	return pid_isa_decode(b, 4, addr, pi) == 4;
}

/* ---- the user's registers ---- */

/* The registers of one trap: %g, %o from the frame, %l, %i from the save area (if it could be read). */
struct s64_regs {
	struct trap_frame *r_tf;
	uint64_t r_v[32];            /* sdt_isa_regindex order: %g0..%g7, %o0..%o7, %l0..%l7, %i0..%i7 */
	bool r_win;                  /* r_v[16..31] were read */
	uint64_t r_fsr;              /* the user's %fsr (its %fcc0..3 for floating-point branches) */
};

/*
 * user_read: the len / 8 words at user address va (8-aligned), if mapped
 * (no fault is taken).  arch_user_probe has walked the loaded space's
 * table: every page is there, valid, and the user's TTEs are readable by
 * the kernel, so plain loads cannot fault (a TLB miss refills from that
 * table; interrupts are off and there is one CPU, so nothing unmaps them
 * meanwhile).  Word loads: arch_safe_read's byte loop cost 800 instructions
 * per save area.
 */
static inline __attribute__((always_inline)) bool user_read(uint64_t *dst, uint64_t va, size_t len)
{
	if ((va & 7) != 0 || !arch_user_probe(va, len))
		return false;
	for (size_t i = 0; i < len / 8; i++)
		dst[i] = ((const volatile uint64_t *)va)[i];
	return true;
}

static void regs_load(struct s64_regs *r, struct trap_frame *tf, uint64_t fsr)
{
	r->r_tf = tf;
	r->r_fsr = fsr;
	memcpy(&r->r_v[0], tf->tf_g, 64);
	r->r_v[0] = 0;
	memcpy(&r->r_v[8], tf->tf_o, 64);
	r->r_win = user_read(&r->r_v[16], tf->tf_o[6] + STACK_BIAS, 128);
	if (!r->r_win)
		memset(&r->r_v[16], 0, 128);
}

/* reg_set: write %g1..%o7 (decoding refused %l and %i destinations). */
static void reg_set(struct s64_regs *r, int n, uint64_t v)
{
	if (n >= 1 && n < 8)
		r->r_tf->tf_g[n] = v;
	else if (n >= 8 && n < 16)
		r->r_tf->tf_o[n - 8] = v;
}

/* operand2: rs2, or the sign-extended simm13. */
static uint64_t operand2(const struct s64_regs *r, uint32_t w)
{
	if ((w >> 13) & 1)
		return (uint64_t)((int64_t)((w & 0x1fff) << 19) >> 19);
	return r->r_v[w & 31];
}

/* ---- emulation ---- */

/* cc_holds: condition cond (Bicc numbering) of the four flags nzvc (N bit 3 .. C bit 0). */
static bool cc_holds(uint32_t nzvc, uint32_t cond)
{
	bool n = nzvc & 8, z = nzvc & 4, v = nzvc & 2, c = nzvc & 1, t;

	switch (cond & 7) {
	case 0: t = false; break;
	case 1: t = z; break;
	case 2: t = z || (n != v); break;
	case 3: t = n != v; break;
	case 4: t = c || z; break;
	case 5: t = c; break;
	case 6: t = n; break;
	default: t = v; break;
	}
	return (cond & 8) ? !t : t;
}

/*
 * fcc_holds: FBfcc's condition cond of fcc (0 =, 1 <, 2 >, 3 unordered):
 * bit fcc of the condition's mask, one per condition from fbn to fbo.
 */
static bool fcc_holds(uint32_t fcc, uint32_t cond)
{
	static const uint8_t mask[16] = { 0x0, 0xe, 0x6, 0xa, 0x2, 0xc, 0x4, 0x8,
	                                  0xf, 0x1, 0x9, 0x5, 0xd, 0x3, 0xb, 0x7 };

	return (mask[cond & 15] >> (fcc & 3)) & 1;
}

/* fcc_of: %fcc n of %fsr (fcc0 is bits 11..10, fcc1..3 bits 33..32, 35..34, 37..36). */
static uint32_t fcc_of(uint64_t fsr, uint32_t n)
{
	return n == 0 ? (uint32_t)(fsr >> 10) & 3 : (uint32_t)(fsr >> (30 + 2 * n)) & 3;
}

/* reg_holds: BPr's rcond of the value v. */
static bool reg_holds(uint64_t v, uint32_t rcond)
{
	int64_t s = (int64_t)v;

	switch (rcond) {
	case 1: return s == 0;
	case 2: return s <= 0;
	case 3: return s < 0;
	case 5: return s != 0;
	case 6: return s > 0;
	default: return s >= 0;
	}
}

static int64_t sext(uint64_t v, int bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* branch_go: the new (pc, npc) after the branch w at pc (its npc given), annul bit included. */
static void branch_go(const struct s64_regs *r, uint32_t w, uint64_t pc, uint64_t *npc, uint64_t *newpc)
{
	uint64_t ccr = (r->r_tf->tf_tstate >> 32) & 0xff, next = *npc;
	uint32_t cond = (w >> 25) & 15;
	bool annul = (w >> 29) & 1, uncond = false, taken;
	int64_t disp;

	if (op2_of(w) == 3) {                            /* BPr */
		taken = reg_holds(r->r_v[rs1_of(w)], (w >> 25) & 7);
		disp = sext(((w >> 20) & 3) << 14 | (w & 0x3fff), 16) * 4;
	} else if (op2_of(w) >= 5) {                     /* FBPfcc (any %fcc), FBfcc (%fcc0) */
		taken = fcc_holds(fcc_of(r->r_fsr, op2_of(w) == 5 ? (w >> 20) & 3 : 0), cond);
		uncond = (cond & 7) == 0;                    /* fba, fbn */
		disp = op2_of(w) == 5 ? sext(w & 0x7ffff, 19) * 4 : sext(w & 0x3fffff, 22) * 4;
	} else {
		uint32_t nzvc = op2_of(w) == 1 && ((w >> 21) & 1) ? (uint32_t)(ccr >> 4) & 15 : (uint32_t)ccr & 15;
		taken = cc_holds(nzvc, cond);
		uncond = (cond & 7) == 0;                    /* ba, bn */
		disp = op2_of(w) == 1 ? sext(w & 0x7ffff, 19) * 4 : sext(w & 0x3fffff, 22) * 4;
	}
	uint64_t target = pc + (uint64_t)disp;
	if (taken && uncond && annul) {                  /* ba,a: the delay slot is skipped */
		*newpc = target;
		*npc = target + 4;
	} else if (taken) {
		*newpc = next;
		*npc = target;
	} else if (annul) {                              /* not taken, annulled: skip the delay slot */
		*newpc = next + 4;
		*npc = next + 8;
	} else {
		*newpc = next;
		*npc = next + 4;
	}
}

/* reads_window: does the emulation of w read a %l or %i register (return reads all of %i)? */
static bool reads_window(uint32_t w)
{
	enum s64_kind k = insn_kind(w);

	if (k == K_RETURN)
		return true;
	if (k == K_JMPL)
		return rs1_of(w) >= 16 || (!((w >> 13) & 1) && (w & 31) >= 16);
	return k == K_BRANCH && op2_of(w) == 3 && rs1_of(w) >= 16;
}

/*
 * pid_emulate: do w (at pc) to the frame; false with the bad address and
 * signal in *bad, *sig if the instruction would have faulted.
 */
static bool pid_emulate(struct s64_regs *r, uint32_t w, uint64_t pc, uint64_t *bad, int *sig)
{
	struct trap_frame *tf = r->r_tf;
	uint64_t npc = tf->tf_tnpc, newpc = npc, t;

	if (!r->r_win && reads_window(w)) {              /* the window's %l and %i are on a bad stack */
		*bad = tf->tf_o[6] + STACK_BIAS;
		*sig = SIGSEGV;
		return false;
	}
	switch (insn_kind(w)) {
	case K_CALL:
		tf->tf_o[7] = pc;
		npc = pc + (uint64_t)(sext(w & 0x3fffffff, 30) * 4);
		break;
	case K_BRANCH:
		branch_go(r, w, pc, &npc, &newpc);
		break;
	case K_JMPL:
	case K_RETURN:
		t = r->r_v[rs1_of(w)] + operand2(r, w);
		if (t & 3) {
			*bad = t;
			*sig = SIGBUS;
			return false;
		}
		if (op3_of(w) == 0x38)
			reg_set(r, rd_of(w), pc);
		else
			memcpy(tf->tf_o, &r->r_v[24], 64);       /* return: the caller's %o are our %i */
		npc = t;
		break;
	case K_RDPC:
		reg_set(r, rd_of(w), pc);
		npc += 4;
		break;
	default:                                         /* nop */
		npc += 4;
		break;
	}
	tf->tf_tpc = newpc;
	tf->tf_tnpc = npc;
	return true;
}

/* ---- the scratch page ---- */

/* scratch_page: the process's scratch page, made on first use; NULL if it cannot be had. */
static uint8_t *scratch_page(void)
{
	struct arch_as *as = curthread()->t_as;
	uint8_t *page = sparc64_user_scratch(as, PID_SCRATCH_VA, false);

	if (page == NULL) {                              /* first use in this process: map the page */
		arch_irq_enable();
		page = sparc64_user_scratch(as, PID_SCRATCH_VA, true);
		arch_irq_disable();
	}
	return page;
}

/* scratch_put: words w[0..n) into the slot, with orig noted; the I-cache flushed. */
static void scratch_put(uint8_t *page, const uint32_t *w, int n, uint64_t orig)
{
	struct pid_scratch *sc = (struct pid_scratch *)(page + PID_SCRATCH_DATA);

	memcpy(page, w, (size_t)n * 4);
	for (int i = 0; i < n; i += 2)
		__asm__ volatile("flush %0" :: "r"(page + 4 * i) : "memory");
	sc->sc_orig = orig;
}

/* pid_step: resume at a copy of w (at pc) in the scratch page, %npc unchanged. */
static bool pid_step(struct trap_frame *tf, uint32_t w, uint64_t pc)
{
	uint8_t *page = scratch_page();

	if (page == NULL)
		return false;
	scratch_put(page, &w, 1, pc);
	tf->tf_tpc = PID_SCRATCH_VA;
	return true;
}

/*
 * pid_return_begin: the return at pc was emulated (tf is at its delay slot,
 * npc its target): run the delay slot from the scratch page, then `ta 0x72`.
 */
static bool pid_return_begin(struct trap_frame *tf, const struct pid_isa_insn *pi, uint64_t pc)
{
	uint8_t *page = scratch_page();
	uint32_t w[2] = { word_at(pi->pi_bytes + 4), INSN_TA_PID_RET };

	if (page == NULL)
		return false;
	struct pid_scratch *sc = (struct pid_scratch *)(page + PID_SCRATCH_DATA);
	scratch_put(page, w, 2, tf->tf_tpc);
	sc->sc_ret_site = pc;
	sc->sc_ret_target = tf->tf_tnpc;
	sc->sc_ret_pending = 1;
	tf->tf_tpc = PID_SCRATCH_VA;
	tf->tf_tnpc = PID_SCRATCH_VA + 4;
	return true;
}

/* ---- the traps ---- */

static void __attribute__((noreturn)) pid_kill(int sig, uint64_t addr, uint64_t pc)
{
	arch_irq_enable();
	proc_fault(sig, addr, pc);
	__builtin_unreachable();
}

/* pid_fire: pid_invop for the trap at pc with registers r; the site's instruction, or NULL. */
static const struct pid_isa_insn *pid_fire(struct s64_regs *r, uint64_t pc, uint8_t fire, uint64_t ret_to)
{
	int cpu = curcpu()->cpu_id;
	struct pid_trap pt = { curproc()->p_pid, curthread()->t_as, pc, r->r_tf->tf_o, r->r_v,
	                       r->r_tf->tf_o[0], cpu, false, fire };

	pid_cur[cpu] = &pt;
	pid_cur_ret[cpu] = ret_to;
	const struct pid_isa_insn *pi = pid_invop(&pt);
	pid_cur[cpu] = NULL;
	pid_cur_ret[cpu] = 0;
	return pi;
}

/* pid_site_trap: `ta 0x71` at a site: fire, then replay the displaced instruction. */
static bool pid_site_trap(struct trap_frame *tf, uint64_t fsr)
{
	struct s64_regs r;
	uint64_t pc = tf->tf_tpc, bad = 0;
	int sig = SIGSEGV;

	regs_load(&r, tf, fsr);
	const struct pid_isa_insn *pi = pid_fire(&r, pc, PID_FIRE_BEFORE, 0);
	if (pi == NULL)
		return false;                                /* the program's own ta 0x71: SIGTRAP */
	uint32_t w = word_at(pi->pi_bytes);
	if (pi->pi_how == PID_HOW_EMULATE) {
		if (!pid_emulate(&r, w, pc, &bad, &sig))
			pid_kill(sig, bad, pc);
		if (pi->pi_ret) {
			struct s64_regs d;
			regs_load(&d, tf, fsr);                  /* now at the delay slot, which runs */
			pid_fire(&d, tf->tf_tpc, PID_FIRE_BEFORE, 0);  /* out of line: its own probe first */
			if (!pid_return_begin(tf, pi, pc))
				pid_kill(SIGKILL, PID_SCRATCH_VA, pc);
		}
	} else if (!pid_step(tf, w, pc)) {
		pid_kill(SIGKILL, PID_SCRATCH_VA, pc);
	}
	return true;
}

/* pid_return_trap: `ta 0x72` after a return's delay slot: fire the return probe, go to the target. */
static bool pid_return_trap(struct trap_frame *tf)
{
	struct arch_as *as = curthread()->t_as;
	uint8_t *page = as != NULL ? sparc64_user_scratch(as, PID_SCRATCH_VA, false) : NULL;
	struct s64_regs r;

	if (page == NULL || tf->tf_tpc != PID_SCRATCH_VA + 4)
		return false;
	struct pid_scratch *sc = (struct pid_scratch *)(page + PID_SCRATCH_DATA);
	if (!sc->sc_ret_pending)
		return false;
	uint64_t site = sc->sc_ret_site, target = sc->sc_ret_target;
	sc->sc_ret_pending = 0;
	tf->tf_tpc = site;                               /* uregs[R_PC] is the return instruction */
	tf->tf_tnpc = site + 4;
	regs_load(&r, tf, 0);
	pid_fire(&r, site, PID_FIRE_RETURN, target);
	tf->tf_tpc = target;
	tf->tf_tnpc = target + 4;
	return true;
}

void sparc64_fpu_save(void *area);        /* switch.S: %f0..%f62 and %fsr, 264 bytes */
void sparc64_fpu_load(const void *area);

/*
 * pid_isa_trap: the kernel's C code uses the floating-point registers too
 * (GCC moves blocks through them), and a probe may sit between any two of
 * the program's instructions, so the user's %f registers and %fsr are kept
 * across the firing and the replay.
 */
bool pid_isa_trap(struct trapframe *frame)
{
	struct trap_frame *tf = (struct trap_frame *)frame;
	uint64_t fpu[33];
	bool ours;

	if (curproc() == NULL || curthread()->t_as == NULL)
		return false;
	sparc64_fpu_save(fpu);
	if ((tf->tf_tt & 0x7f) == TRAP_PID_RET)
		ours = pid_return_trap(tf);
	else
		ours = pid_site_trap(tf, fpu[32]);          /* %fsr: the floating-point branches' %fcc */
	sparc64_fpu_load(fpu);
	return ours;
}

uint64_t pid_isa_fault_pc(uint64_t pc)
{
	struct thread *t = curthread();

	if (pc < PID_SCRATCH_VA || pc >= PID_SCRATCH_VA + 8 || t->t_as == NULL)
		return pc;
	const uint8_t *page = sparc64_user_scratch(t->t_as, PID_SCRATCH_VA, false);
	if (page == NULL)
		return pc;
	const struct pid_scratch *sc = (const struct pid_scratch *)(page + PID_SCRATCH_DATA);
	return pc == PID_SCRATCH_VA ? sc->sc_orig : sc->sc_ret_site;
}

/* ---- uregs[] and ustack() ---- */

#define UREG_CCR  32                     /* regs.d: after %g0..%i7 */
#define UREG_PC   33
#define UREG_NPC  34
#define UREG_Y    35
#define UREG_ASI  36
#define UREG_FPRS 37

/* user_tf: the current thread's user registers (the frame at the top of its kernel stack), or NULL. */
static inline __attribute__((always_inline)) const struct trap_frame *user_tf(void)
{
	struct thread *t = curthread();

	if (t->t_proc == NULL || t->t_as == NULL)
		return NULL;
	return (const struct trap_frame *)((uint64_t)t->t_stack + THREAD_STACK_SIZE) - 1;
}

NOTRACE bool pid_isa_uregs(uint64_t idx, uint64_t *val)
{
	const struct trap_frame *tf = user_tf();
	uint64_t fprs;

	if (tf == NULL || idx > UREG_FPRS)
		return false;
	if (idx == 0)
		*val = 0;
	else if (idx < 8)
		*val = tf->tf_g[idx];
	else if (idx < 16)
		*val = tf->tf_o[idx - 8];
	else if (idx < 32)
		return user_read(val, tf->tf_o[6] + STACK_BIAS + (idx - 16) * 8, 8);
	else if (idx == UREG_CCR)
		*val = (tf->tf_tstate >> 32) & 0xff;
	else if (idx == UREG_PC)
		*val = tf->tf_tpc;
	else if (idx == UREG_NPC)
		*val = tf->tf_tnpc;
	else if (idx == UREG_Y)
		*val = tf->tf_y;
	else if (idx == UREG_ASI)
		*val = (tf->tf_tstate >> 24) & 0xff;
	else {
		__asm__ volatile("rd %%fprs, %0" : "=r"(fprs));
		*val = fprs;
	}
	return true;
}

NOTRACE int pid_isa_ustack(uint64_t *pcs, int max)
{
	const struct trap_frame *tf = user_tf();
	int cpu = curcpu()->cpu_id, n = 0;
	struct pid_trap *pt = pid_cur[cpu];

	if (tf == NULL || max <= 0)
		return 0;
	pcs[n++] = tf->tf_tpc;
	if (pt != NULL && pt->pt_entry && n < max)
		pcs[n++] = tf->tf_o[7];              /* before the save: the call site is in %o7 */
	else if (pt != NULL && pid_cur_ret[cpu] != 0 && n < max)
		pcs[n++] = pid_cur_ret[cpu] - 8;     /* a return probe: the call site it returns past */
	uint64_t fp = tf->tf_o[6];
	while (n < max) {
		uint64_t w[2];                       /* the saved %i6 (the caller's %sp) and %i7 */
		if (!user_read(w, fp + STACK_BIAS + 14 * 8, sizeof(w)) || w[1] == 0)
			break;
		pcs[n++] = w[1];
		if (w[0] <= fp)
			break;                           /* stacks grow down: a caller's frame is above */
		fp = w[0];
	}
	return n;
}
