/*
 * fbt_isa.c - the x86_64 half of fbt, and the probe trap fbt and sdt share.
 *
 * Planting: an enabled site's first byte becomes int3 (0xCC), written with
 * text_patch() through the patching alias; disabling writes the saved byte
 * back, so a disabled probe leaves the text exactly as the compiler made it.
 *
 * The trap: int3 pushes an interrupt frame and entry.asm saves the registers
 * under it (struct trapframe); the interrupted rsp is tf_rsp, the trapping
 * instruction is at tf_rip - 1.  prov_isa_trap() asks fbt, then sdt, whether
 * that address is theirs; the provider fires the probe and says how to resume:
 *
 *   entry (fbt)   the displaced first instruction was copied out of line,
 *                 followed by a jmp back to the second one; resume there.
 *                 Replaying it out of line, rather than emulating
 *                 `push %rbp` by hand, matters because the push would write
 *                 the slot just under the interrupted rsp, which is where the
 *                 CPU put this very interrupt frame when rsp was 16-aligned.
 *                 It also covers gcc's frameless leaf functions, whose first
 *                 instruction is anything (lea, mov, xor, RIP-relative loads,
 *                 whose displacement is adjusted for the copy's address).
 *   return (fbt)  `ret`: rip = [rsp], rsp += 8.  Reads only, so the frame is
 *                 never in the way.  (`leave` before it has run already.)
 *   sdt           the site is a 5-byte NOP: resume after it.
 *
 * The out-of-line copies live in fbt_ool[], an area of .text.notrace filled
 * with int3 at build time and written with text_patch() when a function's
 * entry probe is first enabled; a copy is never freed, so a CPU that trapped
 * just before the probe was disabled still finds it.
 *
 * Everything in this file is in the notrace region (linker.ld).
 *
 * Tests: self-tests fbt_*, x86_decode_* (tests/kernel/prov_fbt_selftest.c);
 *        tests/d/fbt; tests/e2e/test_smp_enable.py
 */
#include "arch/arch.h"
#include "arch/x86_64/fbt_isa.h"
#include "arch/x86_64/fbt_jump.h"
#include "arch/x86_64/x86_decode.h"
#include "kernel/cpu.h"
#include "kernel/ksym.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"

#define FBT_OOL_SIZE (32 * 1024)

__asm__(".pushsection .text.notrace.fbt_ool, \"ax\", @progbits\n"
        ".balign 16\n"
        "fbt_ool:\n"
        ".fill " "32768" ", 1, 0xcc\n"
        ".size fbt_ool, 32768\n"
        ".popsection\n");
extern uint8_t fbt_ool[FBT_OOL_SIZE];
static size_t fbt_ool_used;

/* ---- the probe trap ---- */

static struct trapframe *intr_frame[MAX_CPUS];   /* innermost device interrupt, per CPU */

static inline struct cpu *trap_cpu(void)
{
	struct cpu *c;

	__asm__ volatile("movq %%gs:0, %0" : "=r"(c));
	return c;
}

/* Probe traps taken, per CPU (the benchmarks' traps per firing: 0 on the call path). */
static uint64_t prov_isa_traps[MAX_CPUS];

uint64_t prov_isa_trap_count(void)
{
	uint64_t n = 0;

	for (int i = 0; i < MAX_CPUS; i++)
		n += __atomic_load_n(&prov_isa_traps[i], __ATOMIC_RELAXED);
	return n;
}

/*
 * sdt_isa_site_armed: do the bytes at pc look like an armed sdt site (int3
 * over the first byte of the 5-byte NOP)?  Then sdt is asked first, and
 * an sdt firing does not pay for fbt's lookup.  Only an order: a miss
 * still asks the other provider.
 */
static inline bool sdt_isa_site_armed(uint64_t pc)
{
	const uint8_t *p = (const uint8_t *)pc;

	if ((pc & (PAGE_SIZE - 1)) > PAGE_SIZE - 5)
		return false;                        /* the next page may not be mapped: ask fbt first */
	return p[1] == 0x1f && p[2] == 0x44 && p[3] == 0x00 && p[4] == 0x00;
}

/*
 * jump_ret_trap: the int3 on the first byte of a jump-optimised return
 * site's range (fbt_jump_ret.c): resume in its stub, which fires.
 */
static bool jump_ret_trap(struct trapframe *tf, uint64_t pc)
{
	uint64_t stub = fbt_jump_ret_resume(pc);

	if (stub == 0)
		return false;
	tf->tf_rip = stub;
	return true;
}

/*
 * prov_isa_trap: the probe providers' trap.  Interrupts are off (every IDT
 * entry is an interrupt gate).  This is the hot path of an enabled probe, so
 * nothing is copied that a provider can read where it is: the arguments are
 * the trap frame's argument registers, adjacent in argument order.
 */
bool prov_isa_trap(struct trapframe *tf)
{
	struct prov_trap pt;

	if ((tf->tf_cs & 3) != 0)
		return false;
	pt.pt_pc = tf->tf_rip - 1;
	pt.pt_arg = &tf->tf_rdi;
	pt.pt_regs = (const uint64_t *)tf;
	pt.pt_rval = tf->tf_rax;
	pt.pt_fp = tf->tf_rbp;
	pt.pt_sp = (const uint64_t *)tf->tf_rsp;
	pt.pt_cpu = trap_cpu()->cpu_id;
	prov_isa_traps[pt.pt_cpu]++;
	if (sdt_isa_site_armed(pt.pt_pc)) {          /* int3 + the NOP's other four bytes */
		if (!sdt_invop(&pt) && !fbt_invop(&pt))
			return jump_ret_trap(tf, pt.pt_pc);
	} else if (!fbt_invop(&pt) && !sdt_invop(&pt)) {
		return jump_ret_trap(tf, pt.pt_pc);
	}
	if (pt.pt_resume == PROV_RESUME_RETURN) {
		tf->tf_rip = *(const uint64_t *)tf->tf_rsp;
		tf->tf_rsp += 8;
	} else {
		tf->tf_rip = pt.pt_resume_pc;
	}
	return true;
}

struct trapframe *prov_isa_intr_enter(struct trapframe *tf)
{
	int id = trap_cpu()->cpu_id;
	struct trapframe *prev = intr_frame[id];

	intr_frame[id] = tf;
	return prev;
}

void prov_isa_intr_exit(struct trapframe *prev)
{
	intr_frame[trap_cpu()->cpu_id] = prev;
}

bool prov_isa_intr_frame(uint64_t *pc, uint64_t *fp, bool *user)
{
	struct trapframe *tf = intr_frame[trap_cpu()->cpu_id];

	*pc = tf ? tf->tf_rip : 0;
	*fp = tf ? tf->tf_rbp : 0;
	*user = tf && (tf->tf_cs & 3) != 0;
	return tf != NULL;
}

extern char _text_start[], _text_end[];

/* after_call: does ret follow a call instruction (direct, or ff /2 through a register or memory)? */
static bool after_call(uint64_t ret)
{
	if (ret < (uint64_t)_text_start + 8 || ret >= (uint64_t)_text_end || !mem_probe(ret - 7, 7))
		return false;
	const uint8_t *p = (const uint8_t *)ret;
	static const int8_t ffback[] = { 2, 3, 6, 7 };  /* ff modrm [sib] [disp8 | disp32] */

	if (p[-5] == 0xe8)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(ffback); i++)
		if (p[-ffback[i]] == 0xff && (p[-ffback[i] + 1] & 0x38) == 0x10)
			return true;
	return false;
}

/*
 * prov_isa_intr_retslot: where the interrupted kernel function's return
 * address is, when that function has no frame of its own at the
 * interrupted PC, so that %rbp is still its caller's: a frameless leaf
 * (inline-asm helpers such as sti; hlt), its first instruction, right
 * after push %rbp, or at its ret.  NULL when %rbp is its own frame (the
 * frame walk then finds its caller), in user mode, or when the slot does
 * not hold an address after a call.  Interrupt context.
 */
const uint64_t *prov_isa_intr_retslot(void)
{
	struct trapframe *tf = intr_frame[trap_cpu()->cpu_id];
	struct ksym ks;

	if (tf == NULL || (tf->tf_cs & 3) != 0 || !ksym_lookup_addr(tf->tf_rip, &ks) || !ks.ks_func ||
	    !mem_probe(ks.ks_addr, 4) || !mem_probe(tf->tf_rip, 1))
		return NULL;
	const uint8_t *fn = (const uint8_t *)ks.ks_addr;
	uint64_t off = tf->tf_rip - ks.ks_addr;
	bool frame = ks.ks_size >= 4 && fn[0] == 0x55 && fn[1] == 0x48 && fn[2] == 0x89 && fn[3] == 0xe5;
	int slot;

	if (*(const uint8_t *)tf->tf_rip == 0xc3 || !frame || off == 0)
		slot = 0;                           /* at ret, frameless, or before push %rbp */
	else if (off == 1)
		slot = 1;                           /* after push %rbp, before mov %rsp,%rbp */
	else
		return NULL;
	const uint64_t *sp = (const uint64_t *)tf->tf_rsp + slot;
	if ((tf->tf_rsp & 7) != 0 || !mem_probe((uint64_t)sp, 8) || !after_call(*sp))
		return NULL;
	return sp;
}

/* ---- planting ---- */

bool prov_isa_arm(uint64_t addr, uint32_t *saved)
{
	uint8_t trap = FBT_PATCHVAL;

	if (sdt_isa_call_arm(addr, saved))
		return true;            /* an sdt site: a direct call, no trap (sdt_isa.c) */
	*saved = *(const uint8_t *)addr;
	if (*saved == FBT_PATCHVAL)
		return false;           /* someone's trap is there already: never save it as the original */
	return text_patch((void *)addr, &trap, 1);
}

bool prov_isa_disarm(uint64_t addr, uint32_t saved)
{
	uint8_t b = (uint8_t)saved;

	if (saved & SDT_ISA_SAVED_CALL)
		return sdt_isa_call_disarm(addr);

	return text_patch((void *)addr, &b, 1);
}

/* ---- scanning a function ---- */

/* entry_movable: may the first instruction run out of line? */
static bool entry_movable(const uint8_t *p, const struct x86_insn *xi)
{
	static const uint8_t sdt_nop[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

	if (xi->xi_kind != X86_OTHER)
		return false;           /* control transfer: a copy would go elsewhere */
	if (xi->xi_len == 5 && memcmp(p, sdt_nop, 5) == 0)
		return false;           /* an sdt site: it must stay where sdt can patch it */
	return true;
}

/* scan_note_branch: a direct branch leaving the function is noted for fbt_jump.c. */
static void scan_note_branch(uint64_t addr, uint64_t size, uint64_t off, int n, const uint8_t *p,
                             const struct x86_insn *xi)
{
	int64_t d;

	if (xi->xi_relsize == 1) {
		d = (int8_t)p[xi->xi_rel];
	} else {
		int32_t d32;
		memcpy(&d32, p + xi->xi_rel, 4);
		d = d32;
	}
	uint64_t target = addr + off + (uint64_t)n + (uint64_t)d;
	if (target < addr || target >= addr + size)
		fbt_jump_note_target(target);
}

int fbt_isa_scan(uint64_t addr, uint64_t size, struct fbt_isa_func *out)
{
	const uint8_t *p = (const uint8_t *)addr;
	struct x86_insn xi;
	uint64_t off = 0;

	*out = (struct fbt_isa_func){ 0 };
	fbt_jump_pristine_take();                    /* the first time: the text as compiled */
	while (off < size) {
		int n = x86_decode(p + off, size - off, &xi);
		if (n < 0 || xi.xi_kind == X86_INT3)
			return -1;              /* not decodable, or someone's breakpoint */
		if (off == 0) {
			out->fi_entry_ok = entry_movable(p, &xi);
			out->fi_frame = size >= 4 && p[0] == 0x55 && p[1] == 0x48 &&
			                p[2] == 0x89 && p[3] == 0xe5;
		}
		if (xi.xi_rel >= 0)
			scan_note_branch(addr, size, off, n, p + off, &xi);
		if (xi.xi_kind == X86_RET && off != 0) {
			if (out->fi_nret == FBT_ISA_MAXRET)
				return -1;
			out->fi_ret[out->fi_nret++] = (uint32_t)off;
		}
		off += (uint64_t)n;
	}
	return 0;
}

/* ---- out-of-line copies ---- */

uint64_t fbt_isa_entry_copy(uint64_t addr)
{
	const uint8_t *p = (const uint8_t *)addr;
	struct x86_insn xi;
	uint8_t buf[15 + 5];

	int n = x86_decode(p, 15, &xi);
	if (n < 0 || !entry_movable(p, &xi) || fbt_ool_used + (size_t)n + 5 > FBT_OOL_SIZE)
		return 0;
	uint64_t slot = (uint64_t)&fbt_ool[fbt_ool_used];
	if (!x86_relocate(p, n, &xi, addr, slot, buf))
		return 0;
	if (!text_patch((void *)slot, buf, (size_t)n + 5))
		return 0;
	fbt_ool_used += (size_t)n + 5;
	return slot;
}
