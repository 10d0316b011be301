/*
 * fbt_isa.c - sparc64: the machine half of fbt, and the probe trap fbt and
 * sdt share (kernel/prov_isa.h, arch/sparc64/fbt_isa.h).
 *
 * A trapping probe site holds `ta 0x70`, written through text_patch (the
 * direct map's alias, then flush).  The trap reaches sparc64_probe_trap
 * (from trap.c), which describes the trapped state as a struct prov_trap:
 * the arguments are the trapped window's %o0-%o5, pt_regs the 32 integer
 * registers as sdt_isa_regindex numbers them (%g0-%g7, %o0-%o7, %l0-%l7,
 * %i0-%i7; the %l and %i registers are read from the window's save area
 * after flushw).  prov_isa_arm/disarm serve both providers, as on x86_64:
 * a `nop` is an sdt site (sdt_isa.c) and becomes the trap.
 *
 * fbt, the paper's SPARC design: no trap.  An entry site is a function's
 * first instruction, a `save`; a return site a `ret` (its delay slot a
 * `restore`) or a `return %i7 + 8` (its delay slot movable).  Arming
 * writes `ba,a T` over it, T a per-site trampoline built once in
 * .text.notrace.tramp: it takes a register window of its own, stores the
 * arguments (or the result), the caller's call site and %sp, calls
 * sparc64_fbt_entry/return (which fire through fbt_invop with interrupts
 * off), leaves its window and then does what the displaced instructions
 * did: the save and a branch back to site + 4, or the restore (and delay
 * instruction) and retl.  Globals and condition codes are dead at a
 * function boundary in the SPARC ABI, so nothing else is saved.
 *
 * Leaf functions (no save: they run in their caller's window, arguments
 * in %o0-%o5, the return address in %o7) are probed the same way, and the
 * trampoline's own save is what keeps their registers: the leaf's %o
 * registers are the trampoline's %i registers while the framework runs,
 * and come back with its restore.  The entry site is the leaf's first
 * instruction, replayed in the trampoline after the restore (it must be
 * movable, or a branch, replayed with its delay slot D as the branch
 * retargeted to a `ba,a` to its target, D, and a `ba,a` to site + 8, which
 * keeps the annul bit's meaning).  A return site is a `retl; D` with D
 * movable: the trampoline runs D first, so the result in %o0 is final,
 * then fires and does the retl.  A leaf that is `retl; D` from its first
 * word has both probes on that one word: its trampoline fires the entry,
 * runs D, fires the return (whose site fbt knows as offset 4, D's) and
 * returns; the branch stays while either is armed (ts_users).  Disabled, a
 * site is the compiler's own instruction: zero probe effect.
 *
 * Tests: self-tests s64_fbt_* (tests/kernel/sparc64/fbt_selftest.c), sdt_* and
 *        profile_* under make sparc64-check, tests/d/fbt
 */
#include "arch/arch.h"
#include "arch/sparc64/fbt_isa.h"
#include "arch/sparc64/sparc64.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"

#define INSN_RET       0x81c7e008u     /* ret: jmpl %i7 + 8, %g0 */
#define INSN_RETURN    0x81cfe008u     /* return %i7 + 8 */
#define INSN_RETL      0x81c3e008u     /* retl: jmpl %o7 + 8, %g0 */
#define INSN_RESTORE   0x81e80000u     /* restore %g0, %g0, %g0 */
#define TRAMP_WORDS    26              /* words per trampoline */
#define TRAMP_HASH     8192            /* sites that can have one */
#define FRAME          256             /* a trampoline's frame */
#define ARGS_OFF       (STACK_BIAS + 176)

extern struct trap_frame *sparc64_intr_frame;    /* trap.c */
extern uint32_t sparc64_tramp_area[], sparc64_tramp_end[];

/*
 * The trampolines: built in text fbt never instruments, kept forever.
 * 384 KiB holds 3,780 of TRAMP_WORDS words, against 2,684 fbt probes (at
 * most one trampoline each); a site past the end keeps the trap.  (It was
 * 512 KiB, which the image's 4 MiB ceiling could no longer spare.)
 */
__asm__(".pushsection .text.notrace.tramp, \"ax\", @progbits\n"
        ".balign 64\n"
        ".globl sparc64_tramp_area\n"
        "sparc64_tramp_area:\n"
        ".skip 393216\n"
        ".globl sparc64_tramp_end\n"
        "sparc64_tramp_end:\n"
        ".popsection");

struct tramp_slot {
	uint64_t ts_site;            /* the patched instruction's address */
	uint32_t *ts_tramp;          /* its trampoline */
	uint32_t ts_orig;            /* the word the branch replaces, while ts_users > 0 */
	int ts_users;                /* probes armed through it (2: a `retl; D` leaf's entry and return) */
};
static struct tramp_slot tramp_hash[TRAMP_HASH];
static uint32_t *tramp_next = sparc64_tramp_area;

/* ---- instruction words ---- */

static uint32_t op3_of(uint32_t w) { return (w >> 19) & 0x3f; }
static bool is_save(uint32_t w) { return (w >> 30) == 2 && op3_of(w) == 0x3c; }
static bool is_restore(uint32_t w) { return (w >> 30) == 2 && op3_of(w) == 0x3d; }

/*
 * insn_movable: may w run somewhere else than where it was (a trampoline)?
 * Not a control transfer, nothing that reads the PC, no trap or privileged
 * register write.
 */
static bool insn_movable(uint32_t w)
{
	uint32_t op = w >> 30, op2 = (w >> 22) & 7, op3 = op3_of(w);

	if (op == 1)
		return false;                                   /* call */
	if (op == 0)
		return op2 == 4;                                /* sethi (and nop), not branches */
	if (op == 3)
		return true;                                    /* loads and stores */
	if (op3 >= 0x28 && op3 <= 0x3f && op3 != 0x3c && op3 != 0x3d)
		return false;    /* rd (rd %pc), wr, rdpr, flushw, jmpl, return, Tcc, flush, done */
	return true;
}

/*
 * is_dcti: a delayed control transfer (a branch, call, jmpl or return)
 * whose delay slot, the next word, may run: not `ba,a` (or `fba,a`), which
 * annuls it.
 */
static bool is_dcti(uint32_t w)
{
	uint32_t op = w >> 30, op2 = (w >> 22) & 7;

	if (op == 1)
		return true;
	if (op == 0 && (op2 == 2 || op2 == 6 || op2 == 1 || op2 == 5) && (w >> 25 & 0x1f) == 0x18)
		return false;                                   /* annulled, always: ba,a fba,a (bpa,a) */
	if (op == 0)
		return op2 == 1 || op2 == 2 || op2 == 3 || op2 == 5 || op2 == 6;
	return op == 2 && (op3_of(w) == 0x38 || op3_of(w) == 0x39);
}

/* is_branch: a PC-relative branch (Bicc, BPcc, BPr, FBfcc, FBPfcc; not call). */
static bool is_branch(uint32_t w)
{
	uint32_t op2 = (w >> 22) & 7;

	return (w >> 30) == 0 && (op2 == 1 || op2 == 2 || op2 == 3 || op2 == 5 || op2 == 6);
}

/* branch_retarget: the branch w with its displacement set to words (small, positive). */
static uint32_t branch_retarget(uint32_t w, uint32_t words)
{
	uint32_t op2 = (w >> 22) & 7;
	uint32_t mask = op2 == 3 ? (3u << 20 | 0x3fffu) : op2 == 1 || op2 == 5 ? 0x7ffffu : 0x3fffffu;

	return (w & ~mask) | words;
}

/* branch_dest: where the branch w at pc goes. */
static uint64_t branch_dest(uint32_t w, uint64_t pc)
{
	uint32_t op2 = (w >> 22) & 7;
	int64_t disp;

	if (op2 == 2 || op2 == 6)
		disp = (int64_t)((uint64_t)w << 42) >> 40;
	else if (op2 == 1 || op2 == 5)
		disp = (int64_t)((uint64_t)w << 45) >> 43;
	else
		disp = (int64_t)((uint64_t)((w >> 20 & 3) << 14 | (w & 0x3fff)) << 48) >> 46;
	return pc + (uint64_t)disp;
}

/* branch_to: is w, at pc, a branch or call whose target is to? */
static bool branch_to(uint32_t w, uint64_t pc, uint64_t to)
{
	if (w >> 30 == 1)
		return pc + (uint64_t)((int64_t)((uint64_t)w << 34) >> 32) == to;   /* call: disp30 * 4 */
	return is_branch(w) && branch_dest(w, pc) == to;
}

/*
 * leaf_entry_ok: may a leaf function (no save) at w, n words long, have an
 * entry probe?  Its first instruction must run in the trampoline (movable),
 * or be `retl` or a branch with a movable delay instruction, and nothing in the
 * function may branch back to its first word (a loop there would fire the
 * entry probe again).
 */
static bool leaf_entry_ok(const uint32_t *w, uint64_t n)
{
	if (w[0] == INSN_RETL || is_branch(w[0])) {
		if (n < 2 || !insn_movable(w[1]) || is_save(w[1]) || is_restore(w[1]))
			return false;
	} else if (!insn_movable(w[0]) || is_save(w[0]) || is_restore(w[0])) {
		return false;
	}
	for (uint64_t i = 1; i < n; i++)
		if (branch_to(w[i], (uint64_t)&w[i], (uint64_t)w))
			return false;
	return true;
}

static uint32_t insn_sethi_hi(uint64_t v, int rd) { return 0x01000000u | (uint32_t)rd << 25 | (uint32_t)((v >> 10) & 0x3fffff); }
static uint32_t insn_or_lo(uint64_t v, int rd) { return 0x80102000u | (uint32_t)rd << 25 | (uint32_t)rd << 14 | (uint32_t)(v & 0x3ff); }
static uint32_t insn_call(uint64_t from, uint64_t to) { return 0x40000000u | (uint32_t)(((to - from) >> 2) & 0x3fffffff); }
static uint32_t insn_ba_a(uint64_t from, uint64_t to) { return 0x30800000u | (uint32_t)(((to - from) >> 2) & 0x3fffff); }
/* stx %i<r>, [%sp + off] */
static uint32_t insn_stx_i(int r, int off) { return 0xc0738000u | (uint32_t)(24 + r) << 25 | 0x2000u | (uint32_t)(off & 0x1fff); }
#define INSN_SAVE_FRAME  (0x9de3a000u | ((uint32_t)-FRAME & 0x1fff))   /* save %sp, -FRAME, %sp */
#define INSN_ADD_ARGS_O1 (0x9203a000u | ARGS_OFF)                    /* add %sp, ARGS_OFF, %o1 */

void sparc64_fbt_entry(uint64_t site, uint64_t *args);
void sparc64_fbt_return(uint64_t site, uint64_t *args);

/*
 * tramp_fire_return: at t (words w), in the returning function's caller's
 * window with the result in %o0: a frame, sparc64_fbt_return(site, args)
 * with the result, the call site and %sp, back, and retl.
 */
static int tramp_fire_return(uint64_t site, uint32_t *w, uint64_t t)
{
	int n = 0;

	w[n++] = INSN_SAVE_FRAME;
	w[n++] = insn_stx_i(0, ARGS_OFF);                 /* the result */
	w[n++] = insn_stx_i(7, ARGS_OFF + 48);
	w[n++] = insn_stx_i(6, ARGS_OFF + 56);
	w[n++] = insn_sethi_hi(site, 8);
	w[n++] = insn_or_lo(site, 8);
	w[n] = insn_call(t + 4 * (uint64_t)n, (uint64_t)sparc64_fbt_return);
	n++;
	w[n++] = INSN_ADD_ARGS_O1;
	w[n++] = INSN_RESTORE;
	w[n++] = INSN_RETL;
	w[n++] = INSN_NOP;
	return n;
}

/*
 * tramp_entry: for a function whose first instruction (at site) is a
 * save: a frame, the six arguments, the return address and the caller's
 * %sp stored, sparc64_fbt_entry(site, args), back to the caller's window,
 * the displaced save, and a branch to site + 4.
 */
static int tramp_entry(uint64_t site, uint32_t first, uint32_t *w, uint64_t t)
{
	int n = 0;

	w[n++] = INSN_SAVE_FRAME;
	for (int r = 0; r < 6; r++)
		w[n++] = insn_stx_i(r, ARGS_OFF + 8 * r);
	w[n++] = insn_stx_i(7, ARGS_OFF + 48);            /* %i7: the call site */
	w[n++] = insn_stx_i(6, ARGS_OFF + 56);            /* %i6: the caller's %sp */
	w[n++] = insn_sethi_hi(site, 8);
	w[n++] = insn_or_lo(site, 8);
	w[n] = insn_call(t + 4 * n, (uint64_t)sparc64_fbt_entry);
	n++;
	w[n++] = INSN_ADD_ARGS_O1;
	w[n++] = INSN_RESTORE;
	if (first == INSN_RETL) {
		/* A leaf that returns at once: its return probe's site is site + 4 (leaf_return_site). */
		w[n++] = ((const uint32_t *)site)[1];
		return n + tramp_fire_return(site + 4, w + n, t + 4 * (uint64_t)n);
	}
	if (is_branch(first)) {
		/* A leaf's first branch and its delay slot: taken, on to its target; not, to site + 8. */
		w[n] = branch_retarget(first, 3);
		w[n + 1] = ((const uint32_t *)site)[1];
		w[n + 2] = insn_ba_a(t + 4 * (n + 2), site + 8);
		w[n + 3] = insn_ba_a(t + 4 * (n + 3), branch_dest(first, site));
		return n + 4;
	}
	w[n++] = first;
	w[n] = insn_ba_a(t + 4 * n, site + 4);
	return n + 1;
}

/*
 * tramp_return: for `ret; restore ...` (the restore first) or
 * `return %i7 + 8; D` (a restore, then D): now in the caller's window
 * with the result in %o0; a frame, sparc64_fbt_return(site, args) with the
 * result, the caller's call site and %sp, back, and retl.
 */
static int tramp_return(uint64_t site, uint32_t ret, uint32_t delay, uint32_t *w, uint64_t t)
{
	int n = 0;

	if (ret == INSN_RET || ret == INSN_RETL) {
		w[n++] = delay;                                   /* the restore, or a leaf's delay */
	} else {
		w[n++] = INSN_RESTORE;
		w[n++] = delay;
	}
	return n + tramp_fire_return(site, w + n, t + 4 * (uint64_t)n);
}

static struct tramp_slot *tramp_slot(uint64_t site)
{
	uint64_t h = (site >> 2) * 0x9e3779b97f4a7c15UL >> 51;      /* 13 bits */

	for (int i = 0; i < TRAMP_HASH; i++) {
		struct tramp_slot *ts = &tramp_hash[(h + i) & (TRAMP_HASH - 1)];
		if (ts->ts_site == site || ts->ts_site == 0)
			return ts;
	}
	return NULL;
}

/* is_return: a return site's pair: `ret; restore`, `return %i7 + 8; D` or a leaf's `retl; D` (D movable). */
static bool is_return(const uint32_t *w)
{
	if (w[0] == INSN_RET)
		return is_restore(w[1]);
	if (w[0] != INSN_RETURN && w[0] != INSN_RETL)
		return false;
	return insn_movable(w[1]) && !is_save(w[1]) && !is_restore(w[1]);
}

/*
 * tramp_get: site's trampoline (made once), an entry's if entry, else a
 * return's; NULL if the site cannot have one.  Thread context, serialised
 * by the framework.
 */
static uint32_t *tramp_get(uint64_t site, bool entry)
{
	const uint32_t *insn = (const uint32_t *)site;
	struct tramp_slot *ts = tramp_slot(site);
	uint32_t w[TRAMP_WORDS];
	int n;

	if (ts == NULL)
		return NULL;
	if (ts->ts_site == site)
		return ts->ts_tramp;
	if (tramp_next + TRAMP_WORDS > sparc64_tramp_end)
		return NULL;
	uint64_t t = (uint64_t)tramp_next;
	if (entry)
		n = tramp_entry(site, insn[0], w, t);
	else if (is_return(insn))
		n = tramp_return(site, insn[0], insn[1], w, t);
	else
		return NULL;
	if (!text_patch(tramp_next, w, 4 * (size_t)n))
		return NULL;
	ts->ts_site = site;
	ts->ts_tramp = tramp_next;
	tramp_next += TRAMP_WORDS;
	return ts->ts_tramp;
}

/*
 * fbt_isa_scan: a function with a register window (its first instruction
 * a save) has an entry probe there and return probes at each `ret;
 * restore` and `return %i7 + 8; D` with D movable.  A leaf (no save: the
 * kernel is built without shrink-wrapping, so a function that saves does
 * so first) has an entry probe at its first instruction if leaf_entry_ok
 * says so, and return probes at each `retl; D` with D movable.  A return
 * pair in another instruction's delay slot is left alone.
 */
int fbt_isa_scan(uint64_t addr, uint64_t size, struct fbt_isa_func *out)
{
	const uint32_t *w = (const uint32_t *)addr;
	uint64_t n = size / 4;

	memset(out, 0, sizeof(*out));
	if ((addr & 3) || n == 0)
		return -1;
	out->fi_frame = is_save(w[0]);
	out->fi_entry_ok = out->fi_frame || (w[0] != INSN_NOP && leaf_entry_ok(w, n));
	if (!out->fi_frame && out->fi_entry_ok && w[0] == INSN_RETL)
		out->fi_ret[out->fi_nret++] = 4;        /* leaf_return_site: the entry's trampoline fires it */
	for (uint64_t i = 1; i + 1 < n; i++) {
		if (!is_return(&w[i]) || (w[i] == INSN_RETL) == out->fi_frame || is_dcti(w[i - 1]))
			continue;
		if (out->fi_nret == FBT_ISA_MAXRET)
			return -1;
		out->fi_ret[out->fi_nret++] = (uint32_t)(4 * i);
	}
	return 0;
}

/* fbt_isa_entry_copy: the entry trampoline, which replays the first instruction itself. */
uint64_t fbt_isa_entry_copy(uint64_t addr)
{
	return (uint64_t)tramp_get(addr, true);
}

/* The trampolines' way into fbt (probe context from here on). */
static void fbt_fire(uint64_t site, uint64_t *args, bool entry)
{
	uint64_t fl = arch_irq_save();
	struct prov_trap pt;

	memset(&pt, 0, sizeof(pt));
	pt.pt_pc = site;
	pt.pt_arg = args;
	pt.pt_regs = NULL;
	pt.pt_rval = entry ? 0 : args[0];
	pt.pt_sp = &args[6];           /* the slot holding the caller's call site */
	pt.pt_fp = args[7];            /* the caller's %sp: its frame */
	pt.pt_cpu = 0;
	fbt_invop(&pt);
	arch_irq_restore(fl);
}

void sparc64_fbt_entry(uint64_t site, uint64_t *args) { fbt_fire(site, args, true); }
void sparc64_fbt_return(uint64_t site, uint64_t *args) { fbt_fire(site, args, false); }

/* sparc64_text_word: the kernel text word at addr, if addr is one (fbt_isa.h). */
bool sparc64_text_word(uint64_t addr, uint32_t *w)
{
	extern char _text_start[], _text_end[];

	if ((addr & 3) || addr < (uint64_t)_text_start || addr + 4 > (uint64_t)_text_end)
		return false;
	*w = *(const volatile uint32_t *)addr;
	return true;
}

/* orig_word_at: the word at addr as the compiler left it (an armed site's saved word). */
static bool orig_word_at(uint64_t addr, uint32_t *w)
{
	struct tramp_slot *ts = tramp_slot(addr);

	if (!sparc64_text_word(addr, w))
		return false;
	if (ts != NULL && ts->ts_site == addr && ts->ts_users > 0)
		*w = ts->ts_orig;
	return true;
}

/*
 * leaf_return_site: is addr the return site fbt_isa_scan gave a leaf that
 * is `retl; D` from its first word (addr is D, never patched: the entry's
 * trampoline at addr - 4 does the return and fires its probe)?  A real
 * return site holds ret, return or retl itself.
 */
static bool leaf_return_site(uint64_t addr)
{
	uint32_t w, prev;

	return sparc64_text_word(addr, &w) && orig_word_at(addr - 4, &prev) && prev == INSN_RETL &&
	       w != INSN_RET && w != INSN_RETURN && w != INSN_RETL;
}

static bool patch_word(uint64_t addr, uint32_t w)
{
	uint64_t fl = arch_irq_save();
	bool ok = text_patch((void *)addr, &w, 4);
	arch_irq_restore(fl);
	return ok;
}

/*
 * prov_isa_arm: an fbt site (an entry, a ret, return or retl) becomes
 * `ba,a` to its trampoline: no trap at all, as the paper has it on SPARC;
 * an sdt site (a nop) becomes `ta 0x70`.  A site two probes share (a
 * `retl; D` leaf's) holds the branch while either is armed.
 */
bool prov_isa_arm(uint64_t addr, uint32_t *saved)
{
	uint64_t base = leaf_return_site(addr) ? addr - 4 : addr;
	uint32_t w;

	if (!sparc64_text_word(addr, &w) || !sparc64_text_word(base, &w))
		return false;
	if (w == INSN_NOP) {                              /* sdt */
		*saved = w;
		return patch_word(addr, INSN_TA_PROBE);
	}
	uint32_t *t = tramp_get(base, base != addr);      /* an entry's was made by fbt_isa_entry_copy */
	struct tramp_slot *ts = tramp_slot(base);
	if (t == NULL || ts == NULL || ts->ts_site != base)
		return false;
	if (ts->ts_users == 0) {
		if (w == INSN_TA_PROBE || (w >> 22) == (0x30800000u >> 22))
			return false;                     /* a branch or trap is never the original */
		if (!patch_word(base, insn_ba_a(base, (uint64_t)t)))
			return false;
		ts->ts_orig = w;
	}
	ts->ts_users++;
	sparc64_text_word(addr, saved);
	if (addr == base)
		*saved = ts->ts_orig;
	return true;
}

bool prov_isa_disarm(uint64_t addr, uint32_t saved)
{
	uint64_t base = leaf_return_site(addr) ? addr - 4 : addr;
	struct tramp_slot *ts = tramp_slot(base);
	uint32_t w;

	if (!sparc64_text_word(addr, &w))
		return false;
	if (ts == NULL || ts->ts_site != base || ts->ts_users == 0)
		return patch_word(addr, saved);           /* sdt */
	if (--ts->ts_users > 0)
		return true;
	return patch_word(base, ts->ts_orig);
}

/*
 * frameless_at: has the kernel code at pc no register window of its own
 * there (a leaf function, or a function's first word, its save not yet
 * run)?  Its caller's call site is then in %o7, and its %sp is the
 * caller's frame.  Probe or interrupt context.
 */
static bool frameless_at(uint64_t pc)
{
	struct ksym ks;
	uint32_t w;

	if (!ksym_lookup_addr(pc, &ks) || !ks.ks_func || !sparc64_text_word(ks.ks_addr, &w))
		return false;
	return pc == ks.ks_addr || !is_save(w);
}

/* sparc64_probe_trap: a `ta 0x70`: an sdt (or fbt) site's trap.  Probe context. */
bool sparc64_probe_trap(struct trap_frame *tf)
{
	uint64_t regs[32], leaf[16];
	struct prov_trap pt;

	__asm__ volatile("flushw" ::: "memory");
	memcpy(&regs[0], tf->tf_g, 64);
	memcpy(&regs[8], tf->tf_o, 64);
	memcpy(&regs[16], (const void *)(tf->tf_o[6] + STACK_BIAS), 128);
	memset(&pt, 0, sizeof(pt));
	pt.pt_pc = tf->tf_tpc;
	pt.pt_arg = tf->tf_o;
	pt.pt_regs = regs;
	pt.pt_rval = tf->tf_o[0];
	pt.pt_fp = tf->tf_o[6];         /* the trapped window's %sp: stack() starts at its frame */
	pt.pt_sp = (const uint64_t *)(tf->tf_o[6] + STACK_BIAS);
	pt.pt_cpu = 0;
	if (frameless_at(tf->tf_tpc)) {
		/* A site in a leaf: a frame of our own whose %i6, %i7 are the leaf's %sp and %o7. */
		leaf[14] = tf->tf_o[6];
		leaf[15] = tf->tf_o[7];
		pt.pt_fp = (uint64_t)leaf - STACK_BIAS;
	}
	if (!sdt_invop(&pt) && !fbt_invop(&pt))
		return false;
	if (pt.pt_resume != PROV_RESUME_AT)
		return false;
	tf->tf_tpc = pt.pt_resume_pc;
	tf->tf_tnpc = pt.pt_resume_pc + 4;
	return true;
}

bool prov_isa_intr_frame(uint64_t *pc, uint64_t *fp, bool *user)
{
	struct trap_frame *tf = sparc64_intr_frame;

	*user = false;
	if (tf == NULL) {
		*pc = *fp = 0;
		return false;
	}
	*pc = tf->tf_tpc;
	*fp = tf->tf_o[6];
	*user = (tf->tf_tstate & TSTATE_PRIV) == 0;     /* profile: arg1, and no kernel stack */
	return true;
}

/* prov_isa_intr_retslot: the interrupted %o7 where the interrupted code has no window (frameless_at). */
const uint64_t *prov_isa_intr_retslot(void)
{
	struct trap_frame *tf = sparc64_intr_frame;

	if (tf == NULL || (tf->tf_tstate & TSTATE_PRIV) == 0 || !frameless_at(tf->tf_tpc))
		return NULL;
	return &tf->tf_o[7];
}
