/*
 * fbt_jump_ret.c - jump-optimised fbt return probes on x86_64.
 *
 * What: an enabled return site holds a 5-byte `jmp stub` instead of the
 * int3 on its `ret`, over one of two ranges of bytes:
 *   - the function's last `ret` and the padding after it (the assembler's
 *     nops or int3s up to the next function, which nothing runs or branches
 *     to), when there are at least four bytes of it: the jmp is on the ret
 *     itself, where the int3 was (frameless leaves such as `lea ...; ret`,
 *     and most functions' final epilogue);
 *   - else the shortest run of whole instructions that ends with the `ret`
 *     and covers 5 bytes (the epilogue, mostly: `pop %rbx; pop %r12; pop
 *     %rbp; ret`, `mov ...; leave; ret`).
 * The site's stub (one per site, in fbt_jump.c's stub area, never freed) is
 *
 *   stub:     the displaced instructions but the ret, relocated (x86_relocate)
 *             push $off                   the ret's offset in the function (arg0)
 *             push $site                  the site's struct fbt_jsite
 *             jmp fbt_jump_rtramp         save, fire, restore, and the ret
 *
 * so the epilogue has run when the probe fires: %rax is the return value,
 * %rsp and %rbp are what they are at the `ret` ([rsp] the return address,
 * %rbp the caller's frame), exactly what the trap on the `ret` sees, so
 * arg0 (the ret's offset), arg1, stack() and caller are the trap's.
 * fbt_jump_rtramp saves the flags and every call-clobbered register (a
 * caller may keep values in them across this call: see fbt_jump_tramp),
 * turns interrupts off as the trap would, calls fbt_fire_return()
 * (trace/prov_fbt.c) with the site's cookie, the return value and the
 * frame, restores everything, drops the pushed site and executes the `ret`
 * itself.  No trap, no site lookup: 0 traps per firing.
 *
 * The int3 of an epilogue site sits on the first displaced byte, not on the
 * `ret` (the patching protocol of fbt_jump.c needs it there: it keeps threads
 * out of the range while the jmp is written).  A trap there fires nothing
 * itself: prov_isa_trap, when neither fbt nor sdt owns the address, asks
 * fbt_jump_ret_resume, which sends the CPU into the stub, and the stub fires.
 * So a site that stays on int3 (busy, jumps turned off after it was made,
 * being patched) fires once per call too, through one trap.
 *
 * When a return site may jump (fbt_isa_jump_ret_prepare, once per site):
 *   - the instructions before the `ret` in the range all fall through (no
 *     branch, call, int3, system instruction, not an sdt NOP) and can be
 *     relocated; the ret is a plain `ret` (C3 or F3 C3); the range does not
 *     start at the function (the entry site's byte);
 *   - no branch of the function lands inside the range after its first byte
 *     and the function has no indirect jmp (fbt_jump_branch_into, the entry
 *     side's scan), no branch from another probed function lands inside it
 *     (fbt_jump_ret_note: every direct branch fbt_isa_scan sees leaving a
 *     function, to anything but a function's start), and the function is no
 *     `.cold` fragment (its hot half may be code fbt never decodes);
 *   - no baggage branch site lies in the range (fbt_jump_branch_site_in:
 *     baggage_sites_set patches its first byte at run time).
 * Arming, disarming, the wait until no thread is inside the range and the
 * patching are fbt_jump.c's, unchanged: a return site is one of its sites.
 *
 * What not: a `ret` whose preceding bytes branch, call or are a branch
 * target stays an int3 on the `ret` (today's trap path, counted as
 * refused); so do all return sites unless jumps are on (fbt_jump_on).
 *
 * Context: fbt_isa_jump_ret_prepare in thread context under dtrace_lock;
 * fbt_jump_ret_resume and fbt_jump_rtramp in probe context (interrupts
 * off).  Everything in this file is in the notrace region.
 *
 * Tests: self-tests fbt_jump_ret_one_site, fbt_jump_ret_keeps_every_register,
 *        fbt_jump_cycles (tests/kernel/fbt_jump_selftest.c); tests/d/fbt
 *        booted fbtjump
 */
#include "arch/arch.h"
#include "arch/x86_64/fbt_jump.h"
#include "arch/x86_64/x86.h"
#include "arch/x86_64/x86_decode.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"

#define RET_LEN    5                 /* the jmp */
#define RET_BACK   8                 /* instruction starts remembered before a ret */
#define RET_NOTES  512               /* branches into other functions' bodies */
#define RET_HASH   8192              /* resume table slots (> every site fbt_jump.c can hold) */
#define RET_STUB   48                /* fbt_jump.c's FBT_JUMP_STUB */

/*
 * fbt_jump_rtramp: reached from a return stub after the epilogue ran
 * ([rsp] = the site's struct fbt_jsite, [rsp + 8] = the ret's offset,
 * [rsp + 16] = the function's return address).  Frame after the saves,
 * from %rsp: rdi rsi rdx rcx r8 r9 r10 r11 rax flags jsite offset; under
 * it the probe's six arguments as the trap path has them (the offset, the
 * return value %rax, four zeros) and a word of padding: %rsp at a ret is 8
 * mod 16, as at the entry, so the call is 16-byte aligned.  (A push whose
 * operand is addressed through %rsp reads it before the push: `pushq
 * 136(%rsp)` reads the offset.)  The flags are restored before the `lea`s,
 * which change none; the final `ret` is the probed function's.
 */
__asm__(".pushsection .text.notrace.fbt_jrtramp, \"ax\", @progbits\n"
        ".globl fbt_jump_rtramp\n"
        "fbt_jump_rtramp:\n"
        FBT_JUMP_SAVE
        "	pushq $0\n"                   /* padding */
        "	pushq $0\n"                   /* arg5 .. arg2 */
        "	pushq $0\n"
        "	pushq $0\n"
        "	pushq $0\n"
        "	pushq %rax\n"                 /* arg1: the return value */
        "	pushq 136(%rsp)\n"            /* arg0: the ret's offset */
        "	movq 136(%rsp), %rdi\n"       /* the struct fbt_jsite */
        "	movq 48(%rdi), %rcx\n"        /* js_pc (FBT_JSITE_PC): the ret, the probe's pc */
        "	movq 16(%rdi), %rdi\n"        /* js_site */
        "	movq %gs:0, %rsi\n"
        "	movl 24(%rsi), %esi\n"        /* cpu_id */
        "	movq %rsp, %rdx\n"            /* args */
        "	movq %rbp, %r8\n"             /* fp: the caller's frame */
        "	leaq 152(%rsp), %r9\n"        /* sp at the ret: [sp] = return address */
        "	call fbt_fire_return\n"
        "	leaq 56(%rsp), %rsp\n"
        FBT_JUMP_RESTORE
        "	leaq 16(%rsp), %rsp\n"        /* the pushed site and offset */
        "	ret\n"
        ".size fbt_jump_rtramp, . - fbt_jump_rtramp\n"
        ".popsection\n");
extern char fbt_jump_rtramp[];

static uint8_t *pristine;                   /* the probed text before fbt patched it */
static uint64_t pristine_lo, pristine_hi;
static bool pristine_taken;

extern char __notrace_end[], _text_end[];

void fbt_jump_pristine_take(void)
{
	size_t len = (size_t)(_text_end - __notrace_end);

	if (pristine_taken)
		return;
	pristine_taken = true;
	pristine = kmalloc(len);
	if (pristine == NULL)
		return;                              /* no return site jumps */
	memcpy(pristine, __notrace_end, len);
	pristine_lo = (uint64_t)__notrace_end;
	pristine_hi = pristine_lo + len;
}

const uint8_t *fbt_jump_pristine(uint64_t addr, uint64_t size)
{
	if (pristine == NULL || addr < pristine_lo || addr + size > pristine_hi || addr + size < addr)
		return (const uint8_t *)addr;
	return pristine + (addr - pristine_lo);
}

static uint64_t ret_notes[RET_NOTES];
static int ret_nnotes;
static bool ret_notes_full;                 /* too many: no return site jumps */
static int ret_refused;
static int ret_padded;                      /* sites whose jmp covers the ret and padding */

/* The resume table: a range's first byte -> its stub (open addressing, never shrinks). */
static struct { uint64_t rr_at, rr_stub; } ret_resume[RET_HASH];

static unsigned ret_hash(uint64_t at)
{
	return (unsigned)((at * 0x9e3779b97f4a7c15ull) >> 51) & (RET_HASH - 1);
}

uint64_t fbt_jump_ret_resume(uint64_t pc)
{
	for (unsigned h = ret_hash(pc), n = 0; n < RET_HASH; h = (h + 1) & (RET_HASH - 1), n++) {
		if (ret_resume[h].rr_at == pc)
			return ret_resume[h].rr_stub;
		if (ret_resume[h].rr_at == 0)
			return 0;
	}
	return 0;
}

static void resume_add(uint64_t at, uint64_t stub)
{
	unsigned h = ret_hash(at);

	while (ret_resume[h].rr_at != 0)
		h = (h + 1) & (RET_HASH - 1);
	ret_resume[h].rr_stub = stub;
	__atomic_store_n(&ret_resume[h].rr_at, at, __ATOMIC_RELEASE);
}

void fbt_jump_ret_note(uint64_t target)
{
	struct ksym ks;

	if (ksym_lookup_addr(target, &ks) && ks.ks_func && target == ks.ks_addr)
		return;                              /* a call or tail call: lands on a start */
	for (int i = 0; i < ret_nnotes; i++)
		if (ret_notes[i] == target)
			return;
	if (ret_nnotes == RET_NOTES)
		ret_notes_full = true;
	else
		ret_notes[ret_nnotes++] = target;
}

static bool noted_into(uint64_t at, unsigned len)
{
	if (ret_notes_full)
		return true;
	for (int i = 0; i < ret_nnotes; i++)
		if (ret_notes[i] > at && ret_notes[i] < at + len)
			return true;
	return false;
}

/*
 * padding_after: are the n bytes at a the padding the assembler puts
 * between functions (no symbol's, and nops or int3s)?  Nothing runs them.
 */
static bool padding_after(uint64_t a, unsigned n)
{
	const uint8_t *p = fbt_jump_pristine(a, n + 15);
	struct ksym ks;
	struct x86_insn xi;

	if (!mem_probe(a, n + 15))
		return false;
	for (unsigned k = 0; k < n; k++)
		if (ksym_lookup_addr(a + k, &ks))
			return false;
	for (unsigned off = 0; off < n;) {
		int len = x86_decode(p + off, 15, &xi);
		bool nop = len > 0 && xi.xi_kind == X86_OTHER &&
		           ((xi.xi_map == 0 && xi.xi_opc == 0x90) || (xi.xi_map == 1 && xi.xi_opc == 0x1f));
		if (p[off] == 0xcc)
			len = 1;
		else if (!nop)
			return false;
		off += (unsigned)len;
	}
	return true;
}

/*
 * range_find: the bytes a return site's jmp displaces, from the returned
 * address (0: none), *len of them.  The function's last ret followed by
 * at least four bytes of padding: the ret itself and the padding (the
 * site is the ret, as its int3 is).  Else the shortest run of whole
 * instructions that ends with the ret and covers RET_LEN bytes, every one
 * before the ret falling through.
 */
/* Why a return site keeps its int3: ret_why[] counts each (probes -v at the prompt). */
enum { RWHY_DECODE, RWHY_SHORT, RWHY_NOT_MOVABLE, RWHY_ENTRY, RWHY_COLD, RWHY_NOTED, RWHY_BRANCH_INTO,
       RWHY_BAGGAGE, RWHY_STUB };
static const char *const why_ret[] = {
	[RWHY_DECODE]      = "the function does not decode up to a plain ret",
	[RWHY_SHORT]       = "fewer than 5 bytes of instructions before the ret",
	[RWHY_NOT_MOVABLE] = "a branch, call or unmovable instruction within 5 bytes of the ret",
	[RWHY_ENTRY]       = "the range would take the entry site's bytes",
	[RWHY_COLD]        = "a .cold fragment",
	[RWHY_NOTED]       = "a branch from another function lands inside the range",
	[RWHY_BRANCH_INTO] = "a branch of the function lands inside the range",
	[RWHY_BAGGAGE]     = "a baggage branch site",
	[RWHY_STUB]        = "an instruction that cannot be relocated, or a stub too long",
};
_Static_assert(ARRAY_SIZE(why_ret) <= FBT_JUMP_WHY_MAX, "fjs_ret_why[] holds every reason");
static int ret_why[ARRAY_SIZE(why_ret)];

static uint64_t range_find(uint64_t ret, uint64_t func, uint64_t size, unsigned *len, int *why)
{
	static const uint8_t sdt_nop[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	const uint8_t *p = fbt_jump_pristine(func, size);
	uint64_t starts[RET_BACK];
	struct x86_insn xi;
	uint64_t off = 0, roff = ret - func, entry_end = 0;
	unsigned k = 0;

	while (off < roff) {                         /* instruction starts, from the function's */
		int n = x86_decode(p + off, size - off, &xi);
		if (n < 0) {
			*why = RWHY_DECODE;
			return 0;
		}
		starts[k++ % RET_BACK] = off;
		off += (uint64_t)n;
		if (entry_end == 0 && off >= RET_LEN)
			entry_end = off;                 /* the most an entry jmp displaces */
	}
	int rn = x86_decode(p + roff, size - roff, &xi);
	if (off != roff || rn < 0 || xi.xi_kind != X86_RET) {
		*why = RWHY_DECODE;
		return 0;
	}
	uint64_t end = roff + (uint64_t)rn, start = roff;
	if (end == size && padding_after(func + end, RET_LEN - (unsigned)rn)) {
		*len = RET_LEN;
		return ret;
	}
	for (unsigned back = 1; end - start < RET_LEN; back++) {
		if (back > k || back > RET_BACK) {
			*why = RWHY_SHORT;
			return 0;
		}
		start = starts[(k - back) % RET_BACK];
		int n = x86_decode(p + start, size - start, &xi);
		if (n < 0 || xi.xi_kind != X86_OTHER || (n == 5 && memcmp(p + start, sdt_nop, 5) == 0)) {
			*why = RWHY_NOT_MOVABLE;
			return 0;
		}
	}
	if (start < entry_end) {
		*why = RWHY_ENTRY;                   /* the entry site's bytes */
		return 0;
	}
	*len = (unsigned)(end - start);
	return func + start;
}

/*
 * stub_build: the displaced instructions but the ret, relocated, then
 * push $off; push $site; jmp fbt_jump_rtramp.  false if something does not fit.
 */
static bool stub_build(int index, uint64_t at, unsigned len, uint64_t ret, uint32_t off, uint64_t stub)
{
	const uint8_t *p = fbt_jump_pristine(at, len);
	unsigned body = (unsigned)(ret - at);
	uint8_t buf[RET_STUB + 16];
	struct x86_insn xi;

	if (body + 15 > RET_STUB || off > INT32_MAX)
		return false;
	for (unsigned off = 0; off < body;) {
		int n = x86_decode(p + off, len - off, &xi);
		/* each copy ends with a jmp back, which the next one (or the push) overwrites */
		if (n < 0 || !x86_relocate(p + off, n, &xi, at + off, stub + off, buf + off))
			return false;
		off += (unsigned)n;
	}
	int64_t me = (int64_t)fbt_jump_cookie(index);       /* in the kernel image: a sign-extended imm32 */
	int32_t rel = (int32_t)((int64_t)((uint64_t)fbt_jump_rtramp - (stub + body + 15)));
	if (me != (int32_t)me)
		return false;
	buf[body] = 0x68;                                   /* push $off */
	memcpy(buf + body + 1, &(int32_t){ (int32_t)off }, 4);
	buf[body + 5] = 0x68;                               /* push $site */
	memcpy(buf + body + 6, &(int32_t){ (int32_t)me }, 4);
	buf[body + 10] = 0xe9;                              /* jmp fbt_jump_rtramp */
	memcpy(buf + body + 11, &rel, 4);
	return text_patch((void *)stub, buf, body + 15);
}

/* ret_refuse: count a refusal of a return site, for reason why. */
static int ret_refuse(int why)
{
	ret_refused++;
	ret_why[why]++;
	return -1;
}

int fbt_isa_jump_ret_prepare(uint64_t ret, uint64_t func, uint64_t size, void *site)
{
	struct ksym ks;
	unsigned len = 0;
	int why = RWHY_ENTRY;
	uint64_t at = range_find(ret, func, size, &len, &why), stub = 0;
	const char *dot = NULL;

	if (at > func && ksym_lookup_addr(func, &ks))
		dot = strchr(ks.ks_name, '.');
	/* at == func: the entry site's bytes; a .cold fragment: its hot half may be undecoded */
	if (at <= func)
		return ret_refuse(why);
	if (dot != NULL && strncmp(dot, ".cold", 5) == 0)
		return ret_refuse(RWHY_COLD);
	if (noted_into(at, len))
		return ret_refuse(RWHY_NOTED);
	if (fbt_jump_branch_into(func, size, at, len))
		return ret_refuse(RWHY_BRANCH_INTO);
	if (fbt_jump_branch_site_in(at, len))
		return ret_refuse(RWHY_BAGGAGE);
	int index = fbt_jump_claim(at, len, site, &stub);
	if (index < 0)
		return -1;
	if (!stub_build(index, at, len, ret, (uint32_t)(ret - func), stub))
		return ret_refuse(RWHY_STUB);
	if (at == ret)
		ret_padded++;
	resume_add(at, stub);
	fbt_jump_keep(index, stub, stub, ret);
	return index;
}

void fbt_jump_ret_stats(struct fbt_jump_stats *out)
{
	out->fjs_ret_refused = ret_refused;
	out->fjs_ret_padded = ret_padded;
	out->fjs_ret_notes = ret_nnotes;
	for (unsigned i = 0; i < ARRAY_SIZE(ret_why); i++)
		out->fjs_ret_why[i] = ret_why[i];
}

const char *fbt_jump_ret_why(int i)
{
	return i >= 0 && i < (int)ARRAY_SIZE(why_ret) ? why_ret[i] : NULL;
}
