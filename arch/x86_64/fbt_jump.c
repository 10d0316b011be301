/*
 * fbt_jump.c - jump-optimised fbt entry probes on x86_64.
 *
 * What: an enabled fbt entry site whose first instructions can move holds
 * a 5-byte `jmp stub` instead of int3.  The site's stub (one per site, in
 * fbt_jstub[], never freed) is
 *
 *   stub:     push $site                  the site's struct fbt_jsite (in the image:
 *                                         a sign-extended 32-bit immediate)
 *             jmp fbt_jump_tramp          save, fire, restore (below)
 *   copy:     the displaced instructions, relocated (x86_relocate)
 *             jmp site + len              the first instruction not displaced
 *
 * fbt_jump_tramp saves the flags and every call-clobbered register (the six
 * argument registers adjacent, in argument order: they are the probe's args;
 * %r10, %r11, %rax), turns interrupts off as the trap would, calls fbt_fire_entry()
 * (trace/prov_fbt.c) with the site's cookie, overwrites the pushed site with
 * the copy's address, restores everything and `ret`s into the copy with %rsp exactly
 * as it was at the site.  No trap, no site lookup: 0 traps per firing.
 * The copy is also where the int3 path resumes for such a site (it covers
 * every displaced byte), so a site may go back and forth between the two.
 *
 * When a site may jump (fbt_isa_jump_prepare, once per site):
 *   - the displaced instructions, the shortest run of whole instructions
 *     covering 5 bytes, all fall through (no branch, call, ret, int3, no
 *     system instruction, not an sdt NOP) and can be relocated;
 *   - no branch in the function lands inside them (after the first byte),
 *     and the function has no indirect jmp (a jump table could land
 *     anywhere); no direct branch in any other probed function lands there
 *     either (fbt_isa_scan notes every branch into another function's first
 *     FBT_JUMP_NEAR bytes other than its start: fbt_jump_note_target).
 *     Assembly in the notrace region never branches into C prologues.
 *   - no baggage branch site (kernel/baggage_site.h) overlaps them: its
 *     first byte is patched at run time (baggage_sites_set), which would
 *     land inside the jmp's displacement, and a copy would keep its state
 *     of the moment.
 *
 * The patching protocol (batched: fbt_isa_jump_arm/disarm only queue;
 * prov_isa_optimize, which the framework calls after each enabling or
 * disabling batch, does the work):
 *   1. every queued site holds int3 at its first byte already (the arm
 *      wrote it); text_patch_sync: every CPU runs it.  From here no thread
 *      can enter the displaced range: the first byte traps and resumes in
 *      the copy, and nothing branches into the rest.
 *   2. wait until no thread is inside a range, i.e. no saved or running
 *      PC, no return address and no interrupt frame lies in (site,
 *      site + len): every stopped thread's stack is scanned from its saved
 *      %rsp to its top under sched_lock (thread_stopped_each: none of them
 *      can run meanwhile), and every CPU scans its own live stack in a
 *      cross-call (its interrupted PC is in the interrupt frame there).  A
 *      thread leaves a range and never re-enters it, so one clean look at
 *      each thread, stopped or running, suffices; a thread that was on a CPU
 *      during one look and off during the other is looked at again.  A word
 *      that only looks like such an address makes the site wait too
 *      (conservative).  Sites still busy after FBT_JUMP_TRIES rounds (1 ms
 *      apart) stay on int3 (counted).
 *   3. the last four bytes of the jmp, text_patch_sync, then its opcode
 *      (0xE9), text_patch_sync.  Each state a CPU can see is a whole
 *      instruction: int3 + anything (the trap resumes in the copy), or the
 *      jmp.  This is the order Intel's SDM gives for cross-modifying code
 *      and that Linux's optprobes follow.
 * Disarming leaves the jmp where it is (the stub fires nothing for a
 * disarmed site) until prov_isa_optimize puts the batch's original bytes
 * back, five at a time, with every other CPU stopped (text_patch_stopped):
 * one rendezvous for the whole batch.  If the CPUs cannot all be stopped
 * (one spins with interrupts off on a lock a stopped one holds), the
 * ordered way: int3 first, sync, the original four bytes, sync, the
 * original first byte.  No wait is needed either way: no thread is ever
 * inside bytes 1..4 of a jmp, or of a site whose first byte is int3.  A CPU
 * that still runs the stub or the copy finishes there and jumps back to
 * site + len.  (Ending an fbt::: flood on 4 CPUs took 0.5-3.5 s under load,
 * most of it this: 4,600 sites written three times, each written again
 * after its sync, while the other vCPUs retranslated the pages.)
 *
 * Return sites (fbt_jump_ret.c) are sites of this table too, with their
 * own stub layout and trampoline (fbt_jump.h says what they share).
 *
 * What not: sites of functions whose prologue
 * is shorter than five bytes of falling-through instructions stay on int3.
 * Jump optimisation is on by default; the boot flag `nofbtjump` (fbt_jump_on,
 * trace/prov_fbt.c) or `probes jump off` at the prompt keeps entry sites on
 * int3.  (It was off for a while after one clean-clone stress storm ended in
 * "mutex_unlock: pingpong not held by the caller" with jumps on.  That was
 * not seen again: 29 runs of the storm self-test on 4 CPUs (1 to 3 s each),
 * two whole stress campaigns, two e2e storms, and the mutex hammers
 * (fbt_jump_mutex_hammer*, fbt_jump_flip_hot) on 4 CPUs all passed.  Ruled
 * out: the relocations (x86_decode's lengths and RIP-relative operands match
 * objdump at every function's first instructions); branches into a
 * displaced range (none anywhere in the image, by objdump); the
 * trampoline's registers (the call-clobbered ones by
 * fbt_jump_keeps_every_register; the callee-saved ones compared before and
 * after every firing by a checking trampoline through 6 storms and 2
 * campaigns); a stub's lifetime (one per site, never freed or reused); the
 * mutex functions' own prologues (push/mov only); the red zone (the kernel
 * is -mno-red-zone, and the probed assembly, arch_switch and
 * thread_trampoline, keeps nothing below %rsp).  The one defect found is
 * the branch-site rule above.)
 * NMIs (on their IST stack) are not looked at: Sonde sends none while
 * tracing.
 *
 * Context: fbt_isa_jump_* and prov_isa_optimize in thread context under
 * dtrace_lock; fbt_jump_tramp in probe context (interrupts off).  Everything
 * in this file is in the notrace region.
 *
 * Tests: self-tests fbt_jump_one_site, fbt_jump_keeps_every_register,
 *        fbt_jump_leaves_branch_sites, fbt_jump_cycles, fbt_jump_cycles_ordered,
 *        fbt_jump_mutex_hammer
 *        (tests/kernel/fbt_jump_selftest.c), fbt_jump_stress,
 *        fbt_jump_mutex_hammer_long, fbt_jump_flip_hot (make fbtjump-stress);
 *        tests/e2e/test_firing_trace.py; tests/d/fbt with nofbtjump
 *        (make dtest-nojump-check)
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "arch/x86_64/x86_decode.h"
#include "arch/x86_64/fbt_jump.h"
#include "kernel/baggage_site.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"
#include "kernel/thread.h"
#include "kernel/xcall.h"

#define FBT_JUMP_MAX   4096          /* sites that can have a stub */
#define FBT_JUMP_STUB  48            /* bytes per stub: 10 + displaced (<= 19) + 5 */
#define FBT_JUMP_LEN   5             /* the jmp */
#define FBT_JUMP_NEAR  24            /* a branch this close to a function's start is noted */
#define FBT_JUMP_NOTES 256
#define FBT_JUMP_TRIES 8
#define FBT_JUMP_THREADS 512         /* threads one wait can track */

__asm__(".pushsection .text.notrace.fbt_jstub, \"ax\", @progbits\n"
        ".balign 16\n"
        "fbt_jstub:\n"
        ".fill 196608, 1, 0xcc\n"      /* FBT_JUMP_MAX * FBT_JUMP_STUB */
        ".size fbt_jstub, 196608\n"
        ".popsection\n");
extern uint8_t fbt_jstub[FBT_JUMP_MAX * FBT_JUMP_STUB];

enum js_state {
	JS_IDLE,                     /* the original bytes */
	JS_TRAP,                     /* int3 at the first byte: armed on the trap path */
	JS_QUEUED,                   /* int3, armed, to become a jmp at the next optimise */
	JS_JUMP,                     /* the jmp */
	JS_UNJUMP,                   /* int3, disarmed, bytes 1..4 to be put back */
	JS_DISARMED,                 /* the jmp, disarmed: to be put back at the next optimise */
};

struct fbt_jsite {
	uint64_t js_addr;            /* the function */
	uint64_t js_copy;            /* the relocated displaced instructions */
	void *js_site;               /* prov_fbt's site (fbt_fire_entry's cookie) */
	uint8_t js_orig[FBT_JUMP_LEN];
	uint8_t js_len;              /* bytes displaced (>= 5) */
	uint8_t js_state;
	bool js_dirty;               /* bytes 1..4 hold the jmp's displacement */
	bool js_busy;                /* a thread was seen inside (this round) */
	bool js_ret;                 /* a return site (fbt_jump_ret.c) */
	uint64_t js_stub;            /* where the jmp goes */
	uint64_t js_pc;              /* return site: the ret (the probe's pc) */
};

_Static_assert(offsetof(struct fbt_jsite, js_pc) == FBT_JSITE_PC, "fbt_jump.h's FBT_JSITE_PC");

static struct fbt_jsite fbt_jsites[FBT_JUMP_MAX];
static int fbt_njsites;
static uint64_t fbt_jnotes[FBT_JUMP_NOTES];  /* branch targets near other functions' starts */
static int fbt_njnotes;
static bool fbt_jnotes_full;                 /* too many: no site jumps */
static struct fbt_jump_stats fbt_jst;

extern char boot_stack[], boot_stack_top[];
extern void *smp_ap_stack[MAX_CPUS];         /* smp.c: each AP's idle stack */
#define AP_STACK_BYTES (16 * 1024)

/* ---- the trampoline ---- */

/*
 * fbt_jump_tramp: reached from a stub ([rsp] = the site's struct fbt_jsite,
 * [rsp + 8] = the probed function's return address).  Frame after the
 * pushes, from %rsp: rdi rsi rdx rcx r8 r9 r10 r11 rax flags jsite.  Saved:
 * every register a C function may change (the six argument registers, %al
 * for a variadic one, %r10, %r11) and the flags; fbt_fire_entry, a C
 * function, keeps the callee-saved registers itself.  %r10 and %r11 must be
 * kept too, although no function reads them at entry: gcc's interprocedural
 * register allocation (-fipa-ra, on at -O2) lets a caller keep a value in a
 * call-clobbered register across a call to a function it knows leaves that
 * register alone, and the probed function's caller knows nothing of the
 * probe.  The stack is 16-byte aligned at the call, as the ABI has it at
 * every function entry (8 + 8 + 72 bytes below an entry %rsp that is 8 mod
 * 16).
 */
__asm__(".pushsection .text.notrace.fbt_jtramp, \"ax\", @progbits\n"
        ".globl fbt_jump_tramp\n"
        "fbt_jump_tramp:\n"
        FBT_JUMP_SAVE
        "	movq 80(%rsp), %rax\n"        /* the struct fbt_jsite */
        "	movq 16(%rax), %rdi\n"        /* js_site */
        "	movq %gs:0, %rsi\n"
        "	movl 24(%rsi), %esi\n"        /* cpu_id */
        "	movq %rsp, %rdx\n"            /* args */
        "	movq 0(%rax), %rcx\n"         /* js_addr: the probe's pc */
        "	movq %rbp, %r8\n"             /* fp: the caller's frame */
        "	leaq 88(%rsp), %r9\n"         /* sp at the site: [sp] = return address */
        "	call fbt_fire_entry\n"
        "	movq 80(%rsp), %rax\n"
        "	movq 8(%rax), %rax\n"         /* js_copy */
        "	movq %rax, 80(%rsp)\n"        /* ret goes to the copy */
        FBT_JUMP_RESTORE
        "	ret\n"
        ".size fbt_jump_tramp, . - fbt_jump_tramp\n"
        ".popsection\n");
extern char fbt_jump_tramp[];

_Static_assert(offsetof(struct fbt_jsite, js_addr) == 0 && offsetof(struct fbt_jsite, js_copy) == 8 &&
               offsetof(struct fbt_jsite, js_site) == 16 && offsetof(struct cpu, cpu_id) == 24,
               "fbt_jump_tramp's offsets follow struct fbt_jsite and struct cpu");

/* ---- which sites may jump ---- */

void fbt_jump_note_target(uint64_t target)
{
	struct ksym ks;

	fbt_jump_ret_note(target);                   /* return sites: any target but a start */
	if (!ksym_lookup_addr(target, &ks) || !ks.ks_func || target == ks.ks_addr ||
	    target - ks.ks_addr >= FBT_JUMP_NEAR)
		return;
	for (int i = 0; i < fbt_njnotes; i++)
		if (fbt_jnotes[i] == target)
			return;
	if (fbt_njnotes == FBT_JUMP_NOTES)
		fbt_jnotes_full = true;
	else
		fbt_jnotes[fbt_njnotes++] = target;
}

static bool inside(uint64_t x, uint64_t addr, unsigned len)
{
	return x > addr && x < addr + len;
}

/* displaced_len: bytes of whole, movable instructions covering the jmp; 0 if none. */
static unsigned displaced_len(uint64_t addr, uint64_t size)
{
	static const uint8_t sdt_nop[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	const uint8_t *p = (const uint8_t *)addr;
	struct x86_insn xi;
	unsigned off = 0;

	while (off < FBT_JUMP_LEN) {
		int n = x86_decode(p + off, size - off, &xi);
		if (n < 0 || xi.xi_kind != X86_OTHER || off + (unsigned)n > size ||
		    (n == 5 && memcmp(p + off, sdt_nop, 5) == 0))
			return 0;
		off += (unsigned)n;
	}
	return off;
}

/* branch_into: does a branch of the function, or a noted one, land inside the range? */
static bool branch_into(uint64_t addr, uint64_t size, unsigned len)
{
	return fbt_jump_branch_into(addr, size, addr, len);
}

bool fbt_jump_branch_into(uint64_t addr, uint64_t size, uint64_t at, unsigned len)
{
	const uint8_t *p = fbt_jump_pristine(addr, size);    /* not the jmps planted since */
	struct x86_insn xi;

	if (fbt_jnotes_full)
		return true;
	for (int i = 0; i < fbt_njnotes; i++)
		if (inside(fbt_jnotes[i], at, len))
			return true;
	for (uint64_t off = 0; off < size;) {
		int n = x86_decode(p + off, size - off, &xi);
		if (n < 0 || xi.xi_kind == X86_JMP_IND)
			return true;
		if (xi.xi_rel >= 0) {
			int64_t d;
			if (xi.xi_relsize == 1) {
				d = (int8_t)p[off + (uint64_t)xi.xi_rel];
			} else {
				int32_t d32;
				memcpy(&d32, p + off + (uint64_t)xi.xi_rel, 4);
				d = d32;
			}
			if (inside(addr + off + (uint64_t)n + (uint64_t)d, at, len))
				return true;
		}
		off += (uint64_t)n;
	}
	return false;
}

/*
 * fbt_jump_branch_site_in: does a baggage branch site (kernel/baggage_site.h: a
 * 5-byte `cmp $rel32, %eax` that baggage_sites_set turns into a `jmp` and
 * back at run time) overlap the range?  Its bytes must stay where they are:
 * a copy would keep the state of the moment, and its first byte may lie
 * inside the jmp's displacement, where the patch would land.
 */
bool fbt_jump_branch_site_in(uint64_t addr, unsigned len)
{
	for (const struct baggage_site *b = __start_baggage_sites; b < __stop_baggage_sites; b++)
		if (b->bs_addr + FBT_JUMP_LEN > addr && b->bs_addr < addr + len)
			return true;
	return false;
}

/* stub_build: write site j's stub and copy; false if an instruction cannot be relocated. */
static bool stub_build(struct fbt_jsite *j, int index)
{
	uint64_t stub = (uint64_t)&fbt_jstub[index * FBT_JUMP_STUB];
	const uint8_t *p = (const uint8_t *)j->js_addr;
	uint8_t buf[FBT_JUMP_STUB + 16];
	struct x86_insn xi;
	int32_t rel = (int32_t)((int64_t)((uint64_t)fbt_jump_tramp - (stub + 10)));

	int64_t me = (int64_t)(uint64_t)j;          /* in the kernel image: a sign-extended imm32 */
	if (me != (int32_t)me)
		return false;
	buf[0] = 0x68;                               /* push $j */
	memcpy(buf + 1, &(int32_t){ (int32_t)me }, 4);
	buf[5] = 0xe9;                               /* jmp fbt_jump_tramp */
	memcpy(buf + 6, &rel, 4);
	for (unsigned off = 0; off < j->js_len;) {
		int n = x86_decode(p + off, j->js_len - off, &xi);
		/* each copy ends with a jmp back to the next instruction, which the next one overwrites */
		if (n < 0 || !x86_relocate(p + off, n, &xi, j->js_addr + off, stub + 10 + off, buf + 10 + off))
			return false;
		off += (unsigned)n;
	}
	j->js_copy = stub + 10;
	j->js_stub = stub;
	return text_patch((void *)stub, buf, 10 + j->js_len + 5);
}

/* Why an entry site keeps its int3: fbt_jst.fjs_why[] counts each (probes -v at the prompt). */
enum { WHY_NOT_MOVABLE, WHY_BRANCH_INTO, WHY_NOTES_FULL, WHY_BAGGAGE, WHY_INT3, WHY_RELOCATE };
static const char *const why_entry[] = {
	[WHY_NOT_MOVABLE] = "a branch, call or unmovable instruction in the first 5 bytes",
	[WHY_BRANCH_INTO] = "a branch lands inside the first 5 bytes",
	[WHY_NOTES_FULL]  = "too many branches into prologues noted",
	[WHY_BAGGAGE]     = "a baggage branch site",
	[WHY_INT3]        = "an int3 there already",
	[WHY_RELOCATE]    = "an instruction that cannot be relocated",
};
_Static_assert(ARRAY_SIZE(why_entry) <= FBT_JUMP_WHY_MAX, "fjs_why[] holds every reason");

/* refuse: count a refusal of an entry site, for reason why. */
static int refuse(int why)
{
	fbt_jst.fjs_refused++;
	fbt_jst.fjs_why[why]++;
	return -1;
}

int fbt_isa_jump_prepare(uint64_t addr, uint64_t size, void *site, uint64_t *copy)
{
	unsigned len = displaced_len(addr, size);

	if (len == 0)
		return refuse(WHY_NOT_MOVABLE);
	if (fbt_jnotes_full)
		return refuse(WHY_NOTES_FULL);
	if (branch_into(addr, size, len))
		return refuse(WHY_BRANCH_INTO);
	if (fbt_jump_branch_site_in(addr, len))
		return refuse(WHY_BAGGAGE);
	if (fbt_njsites == FBT_JUMP_MAX) {
		fbt_jst.fjs_full++;
		return -1;
	}
	int index = fbt_njsites;
	struct fbt_jsite *j = &fbt_jsites[index];
	*j = (struct fbt_jsite){ .js_addr = addr, .js_site = site, .js_len = (uint8_t)len };
	memcpy(j->js_orig, (const void *)addr, FBT_JUMP_LEN);
	if (j->js_orig[0] == 0xcc)
		return refuse(WHY_INT3);
	if (!stub_build(j, index))
		return refuse(WHY_RELOCATE);
	fbt_njsites++;
	*copy = j->js_copy;
	return index;
}

/* ---- arming, disarming ---- */

static const uint8_t int3 = 0xcc;
bool fbt_jump_park = true;
static int fbt_jpending;                     /* sites QUEUED or UNJUMP */

bool fbt_isa_jump_arm(int index, bool jump)
{
	struct fbt_jsite *j = &fbt_jsites[index];

	switch (j->js_state) {
	case JS_IDLE:
		if (!text_patch((void *)j->js_addr, &int3, 1))
			return false;
		break;
	case JS_UNJUMP:                          /* int3 already */
		fbt_jpending--;
		break;
	case JS_DISARMED:                        /* the jmp still there */
		if (jump) {
			j->js_state = JS_JUMP;
			fbt_jst.fjs_jumps++;
			fbt_jpending--;
			return true;
		}
		if (!text_patch((void *)j->js_addr, &int3, 1))
			return false;
		fbt_jpending--;
		break;
	default:
		return true;                     /* armed already */
	}
	j->js_state = jump ? JS_QUEUED : JS_TRAP;
	if (jump)
		fbt_jpending++;
	return true;
}

bool fbt_isa_jump_disarm(int index)
{
	struct fbt_jsite *j = &fbt_jsites[index];

	switch (j->js_state) {
	case JS_IDLE:
	case JS_UNJUMP:
	case JS_DISARMED:
		return true;
	case JS_JUMP:                            /* put back by the next optimise */
		fbt_jst.fjs_jumps--;
		j->js_state = JS_DISARMED;
		fbt_jpending++;
		return true;
	case JS_QUEUED:
		fbt_jpending--;
		break;
	default:
		break;
	}
	if (!j->js_dirty) {                      /* only the first byte ever changed */
		j->js_state = JS_IDLE;
		return text_patch((void *)j->js_addr, j->js_orig, 1);
	}
	j->js_state = JS_UNJUMP;
	fbt_jpending++;
	return true;
}

void fbt_isa_jump_forget(int index)
{
	struct fbt_jsite *j = &fbt_jsites[index];

	if (j->js_state == JS_JUMP)
		fbt_jst.fjs_jumps--;
	if (j->js_state == JS_QUEUED || j->js_state == JS_UNJUMP || j->js_state == JS_DISARMED)
		fbt_jpending--;
	j->js_state = JS_IDLE;
	j->js_dirty = false;
}

/* ---- waiting until no thread is inside a range ---- */

static int jq[FBT_JUMP_MAX], jq_n;           /* QUEUED sites, sorted by address */

static void jq_sort(void)
{
	for (int gap = jq_n / 2; gap > 0; gap /= 2)
		for (int i = gap; i < jq_n; i++)
			for (int k = i; k >= gap && fbt_jsites[jq[k - gap]].js_addr > fbt_jsites[jq[k]].js_addr; k -= gap) {
				int t = jq[k];
				jq[k] = jq[k - gap];
				jq[k - gap] = t;
			}
}

/* word_mark: if w lies inside a queued site's range, that site is busy. */
static void word_mark(uint64_t w)
{
	int lo = 0, hi = jq_n;

	while (lo < hi) {                            /* first site with address >= w */
		int mid = lo + (hi - lo) / 2;
		if (fbt_jsites[jq[mid]].js_addr < w)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		struct fbt_jsite *j = &fbt_jsites[jq[lo - 1]];
		if (inside(w, j->js_addr, j->js_len))
			j->js_busy = true;
	}
}

static uint64_t jtext_lo, jtext_hi;          /* the addresses words are compared with */

static void stack_scan(uint64_t lo, uint64_t hi)
{
	for (uint64_t a = ALIGN_UP(lo, 8); a + 8 <= hi; a += 8) {
		uint64_t w = *(const uint64_t *)a;
		if (w > jtext_lo && w < jtext_hi)
			word_mark(w);
	}
}

/* stack_top: the top of t's kernel stack, or 0 if unknown. */
static uint64_t stack_top(const struct thread *t)
{
	if (t->t_stack == (void *)boot_stack)
		return (uint64_t)boot_stack_top;
	if (t->t_stack != NULL)
		return (uint64_t)t->t_stack + THREAD_STACK_SIZE;
	if (t->t_bound >= 0 && t->t_bound < MAX_CPUS && smp_ap_stack[t->t_bound] != NULL)
		return (uint64_t)smp_ap_stack[t->t_bound] + AP_STACK_BYTES;
	return 0;
}

struct jwait {
	const struct thread *jw_seen[FBT_JUMP_THREADS];   /* looked at, stopped or running */
	int jw_nseen;
	const struct thread *jw_running[MAX_CPUS];        /* on a CPU during the last stopped look */
	int jw_nrunning;
	bool jw_unknown;                                  /* a stack we could not bound */
};

static void jw_seen_add(struct jwait *w, const struct thread *t)
{
	for (int i = 0; i < w->jw_nseen; i++)
		if (w->jw_seen[i] == t)
			return;
	if (w->jw_nseen == FBT_JUMP_THREADS)
		w->jw_unknown = true;
	else
		w->jw_seen[w->jw_nseen++] = t;
}

static bool jw_seen_has(const struct jwait *w, const struct thread *t)
{
	for (int i = 0; i < w->jw_nseen; i++)
		if (w->jw_seen[i] == t)
			return true;
	return false;
}

/* look_stopped: sched_lock held, t cannot run: its stack from the saved %rsp up. */
static void look_stopped(const struct thread *t, bool running, void *arg)
{
	struct jwait *w = arg;
	uint64_t top = stack_top(t);

	if (running) {
		if (w->jw_nrunning < MAX_CPUS)
			w->jw_running[w->jw_nrunning++] = t;
		return;
	}
	if (top == 0 || t->t_rsp >= top || t->t_rsp + THREAD_STACK_SIZE < top) {
		w->jw_unknown = true;
		return;
	}
	stack_scan(t->t_rsp, top);
	jw_seen_add(w, t);
}

/* look_cpu: cross-call, on each CPU: its own live stack (interrupted PC included). */
static void look_cpu(void *arg)
{
	struct jwait *w = arg;
	const struct thread *t = curcpu()->cpu_thread;
	uint64_t top = stack_top(t), sp;

	__asm__ volatile("movq %%rsp, %0" : "=r"(sp));
	if (top == 0 || sp >= top || sp + THREAD_STACK_SIZE < top) {
		w->jw_unknown = true;
		return;
	}
	stack_scan(sp, top);
	jw_seen_add(w, t);
}

/* threads_look: mark busy every queued site a thread may be inside; false if not every thread was seen. */
static bool threads_look(void)
{
	static struct jwait w;                       /* under dtrace_lock */

	for (int i = 0; i < jq_n; i++)
		fbt_jsites[jq[i]].js_busy = false;
	w.jw_nseen = 0;
	w.jw_unknown = false;
	for (int round = 0; round < 4; round++) {
		w.jw_nrunning = 0;
		thread_stopped_each(look_stopped, &w);
		xcall_all(look_cpu, &w);
		bool all = true;
		for (int i = 0; i < w.jw_nrunning; i++)
			all = all && jw_seen_has(&w, w.jw_running[i]);
		if (all || w.jw_unknown)
			return !w.jw_unknown;
	}
	return false;
}

/* ---- the batch ---- */

static bool unjumping(const struct fbt_jsite *j)
{
	return j->js_state == JS_UNJUMP || j->js_state == JS_DISARMED;
}

/* unjump_stopped: every disarmed site's original bytes back at once (the other CPUs stopped). */
static void unjump_stopped(void *arg)
{
	(void)arg;
	for (int i = 0; i < fbt_njsites; i++) {
		struct fbt_jsite *j = &fbt_jsites[i];
		if (unjumping(j) && text_write_stopped((void *)j->js_addr, j->js_orig, FBT_JUMP_LEN)) {
			j->js_state = JS_IDLE;
			j->js_dirty = false;
			fbt_jpending--;
			fbt_jst.fjs_unjumps_stopped++;
		}
	}
}

static void unjump_all(void)
{
	bool any = false;

	for (int i = 0; i < fbt_njsites && !any; i++)
		any = unjumping(&fbt_jsites[i]);
	if (!any || (fbt_jump_park && text_patch_stopped(unjump_stopped, NULL)))
		return;
	fbt_jst.fjs_unjumps_ordered++;
	for (int i = 0; i < fbt_njsites; i++) {      /* the ordered way: int3 over each jmp first */
		struct fbt_jsite *j = &fbt_jsites[i];
		if (j->js_state == JS_DISARMED && text_patch((void *)j->js_addr, &int3, 1))
			j->js_state = JS_UNJUMP;
	}
	text_patch_sync();
	any = false;
	for (int i = 0; i < fbt_njsites; i++) {
		struct fbt_jsite *j = &fbt_jsites[i];
		if (j->js_state == JS_UNJUMP) {
			text_patch((void *)(j->js_addr + 1), j->js_orig + 1, FBT_JUMP_LEN - 1);
			any = true;
		}
	}
	if (!any)
		return;
	text_patch_sync();
	for (int i = 0; i < fbt_njsites; i++) {
		struct fbt_jsite *j = &fbt_jsites[i];
		if (j->js_state == JS_UNJUMP) {
			text_patch((void *)j->js_addr, j->js_orig, 1);
			j->js_state = JS_IDLE;
			j->js_dirty = false;
			fbt_jpending--;
		}
	}
	text_patch_sync();
}

static void jmp_bytes(const struct fbt_jsite *j, uint8_t out[FBT_JUMP_LEN])
{
	int32_t rel = (int32_t)((int64_t)(j->js_stub - (j->js_addr + FBT_JUMP_LEN)));

	out[0] = 0xe9;
	memcpy(out + 1, &rel, 4);
}

/* jump_round: one wait and patch over the queued sites; returns how many are still busy. */
static int jump_round(bool last)
{
	uint8_t jmp[FBT_JUMP_LEN];
	int busy = 0, done = 0;

	jq_n = 0;
	for (int i = 0; i < fbt_njsites; i++)
		if (fbt_jsites[i].js_state == JS_QUEUED)
			jq[jq_n++] = i;
	if (jq_n == 0)
		return 0;
	jq_sort();
	bool looked = threads_look();
	for (int i = 0; i < jq_n; i++) {
		struct fbt_jsite *j = &fbt_jsites[jq[i]];
		if (!looked || j->js_busy) {
			busy++;
			continue;
		}
		jmp_bytes(j, jmp);
		text_patch((void *)(j->js_addr + 1), jmp + 1, FBT_JUMP_LEN - 1);
		j->js_dirty = true;
		done++;
	}
	if (done != 0)
		text_patch_sync();
	for (int i = 0; i < jq_n; i++) {
		struct fbt_jsite *j = &fbt_jsites[jq[i]];
		if (looked && !j->js_busy) {
			jmp_bytes(j, jmp);
			text_patch((void *)j->js_addr, jmp, 1);
			j->js_state = JS_JUMP;
			fbt_jst.fjs_jumps++;
			fbt_jpending--;
		} else if (last) {
			j->js_state = JS_TRAP;       /* stays on int3 while armed */
			fbt_jst.fjs_busy++;
			fbt_jpending--;
		}
	}
	if (done != 0)
		text_patch_sync();
	return last ? 0 : busy;
}

extern char __notrace_end[], _text_end[];

void prov_isa_optimize(void)
{
	if (fbt_jpending == 0)
		return;
	jtext_lo = (uint64_t)__notrace_end;
	jtext_hi = (uint64_t)_text_end;
	text_patch_sync();                           /* step 1: every CPU runs the int3s */
	unjump_all();
	for (int t = 0; t < FBT_JUMP_TRIES; t++) {
		if (jump_round(t == FBT_JUMP_TRIES - 1) == 0)
			break;
		thread_sleep_ns(NSEC_PER_MSEC);
	}
}

void fbt_isa_jump_stats(struct fbt_jump_stats *out)
{
	*out = fbt_jst;
	out->fjs_stubs = fbt_njsites;
	out->fjs_notes = fbt_njnotes;
	for (int i = 0; i < fbt_njsites; i++) {      /* return sites are counted apart */
		if (!fbt_jsites[i].js_ret)
			continue;
		out->fjs_stubs--;
		out->fjs_ret_stubs++;
		if (fbt_jsites[i].js_state == JS_JUMP) {
			out->fjs_jumps--;
			out->fjs_ret_jumps++;
		}
	}
	fbt_jump_ret_stats(out);
}

const char *fbt_isa_jump_why(bool ret, int i)
{
	if (ret)
		return fbt_jump_ret_why(i);
	return i >= 0 && i < (int)ARRAY_SIZE(why_entry) ? why_entry[i] : NULL;
}

/* ---- what return sites (fbt_jump_ret.c) share with entry sites ---- */

int fbt_jump_claim(uint64_t addr, unsigned len, void *site, uint64_t *stub)
{
	if (fbt_njsites == FBT_JUMP_MAX) {
		fbt_jst.fjs_full++;
		return -1;
	}
	int index = fbt_njsites;
	struct fbt_jsite *j = &fbt_jsites[index];

	*j = (struct fbt_jsite){ .js_addr = addr, .js_site = site, .js_len = (uint8_t)len };
	memcpy(j->js_orig, fbt_jump_pristine(addr, FBT_JUMP_LEN), FBT_JUMP_LEN);
	if (j->js_orig[0] == 0xcc || memcmp(j->js_orig, (const void *)addr, FBT_JUMP_LEN) != 0)
		return -1;                           /* someone's patch is there */
	*stub = (uint64_t)&fbt_jstub[index * FBT_JUMP_STUB];
	return index;
}

uint64_t fbt_jump_cookie(int index)
{
	return (uint64_t)&fbt_jsites[index];
}

void fbt_jump_keep(int index, uint64_t copy, uint64_t stub, uint64_t pc)
{
	struct fbt_jsite *j = &fbt_jsites[index];

	j->js_pc = pc;
	j->js_copy = copy;
	j->js_stub = stub;
	j->js_ret = true;
	fbt_njsites++;
}
