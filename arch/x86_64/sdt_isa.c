/*
 * sdt_isa.c - the x86_64 half of sdt.
 *
 * A site (kernel/sdt.h) is the 5-byte NOP `0F 1F 44 00 00` (nopl 0(%rax,%rax))
 * written by the assembler, so a disabled probe costs one NOP.  Enabling
 * plants int3 over its first byte (prov_isa_arm, fbt_isa.c); the trap resumes
 * after the five bytes.  The probe's arguments stay wherever the compiler
 * put them: the macro asks for each in some register ("r" constraint) and
 * records the register's name ("%rbx") next to the site, and
 * sdt_isa_regindex() turns that name into an index into the saved frame.
 *
 * The call path (no trap).  Where it can, enabling writes a 5-byte
 * `call sdt_isa_tramp` over the NOP instead of the trap: the trampoline
 * saves every register and the flags into a struct trapframe laid out as
 * the trap's, turns interrupts off, and hands that frame to sdt_fire_regs()
 * (prov_sdt.c: the same firing as sdt_invop's); it then restores everything
 * and returns after the site.  The site is a single instruction, so no
 * thread can be stopped inside it; what remains is cross-modifying code on
 * SMP, done as Intel's SDM and Linux's text_poke_bp() do: the trap byte
 * first, then every CPU synchronised (text_patch_sync), then the last four
 * bytes, a sync, then the first byte, a sync.  Each state a CPU can see is
 * a whole instruction (the NOP, int3 + anything, the call), and the trap
 * path handles a site whatever its last four bytes hold.  Disabling is the
 * same in reverse.  prov_isa_arm()/prov_isa_disarm() take this path for any
 * address that holds the sdt NOP (fbt never arms one: fbt_isa.c), so the
 * portable provider is unchanged; sdt_isa_call_on = false keeps every site
 * on the trap (the self-tests run both).
 *
 * Tests: self-tests sdt_* (tests/kernel/prov_sdt_selftest.c), tests/d/sdt
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"

#define TF_INDEX(field) ((int)(offsetof(struct trapframe, field) / sizeof(uint64_t)))

static const struct {
	const char *name;
	int index;
} sdt_regs[] = {
	{ "%rax", TF_INDEX(tf_rax) }, { "%rbx", TF_INDEX(tf_rbx) },
	{ "%rcx", TF_INDEX(tf_rcx) }, { "%rdx", TF_INDEX(tf_rdx) },
	{ "%rsi", TF_INDEX(tf_rsi) }, { "%rdi", TF_INDEX(tf_rdi) },
	{ "%rbp", TF_INDEX(tf_rbp) }, { "%rsp", TF_INDEX(tf_rsp) },
	{ "%r8", TF_INDEX(tf_r8) },   { "%r9", TF_INDEX(tf_r9) },
	{ "%r10", TF_INDEX(tf_r10) }, { "%r11", TF_INDEX(tf_r11) },
	{ "%r12", TF_INDEX(tf_r12) }, { "%r13", TF_INDEX(tf_r13) },
	{ "%r14", TF_INDEX(tf_r14) }, { "%r15", TF_INDEX(tf_r15) },
};

int sdt_isa_regindex(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(sdt_regs); i++) {
		if (strcmp(sdt_regs[i].name, name) == 0)
			return sdt_regs[i].index;
	}
	return -1;
}

bool sdt_isa_site_ok(uint64_t addr)
{
	static const uint8_t nop5[SDT_ISA_SITE_LEN] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

	return memcmp((const void *)addr, nop5, sizeof(nop5)) == 0;
}

/* ---- the call path ---- */

#define TF_OFF(field) offsetof(struct trapframe, field)
#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * sdt_isa_tramp: called from an enabled site ([rsp] = site + 5).  Builds a
 * struct trapframe below the flags it pushed (22 words; vector, error code,
 * cs and ss are left as they were: nothing reads them), aligns the stack,
 * calls sdt_fire_regs(frame, site, %rbp, cpu) (trace/prov_sdt.c: the
 * trap's view of the site, no struct prov_trap to fill), and returns with
 * every register and flag as it found them.  Interrupts are off from the
 * second instruction on, as under the trap.
 */
__asm__(".pushsection .text.notrace.sdt_tramp, \"ax\", @progbits\n"
        ".globl sdt_isa_tramp\n"
        "sdt_isa_tramp:\n"
        "	pushfq\n"
        "	cli\n"
        "	subq $176, %rsp\n"
        "	movq %r15, 0(%rsp)\n"
        "	movq %r14, 8(%rsp)\n"
        "	movq %r13, 16(%rsp)\n"
        "	movq %r12, 24(%rsp)\n"
        "	movq %r11, 32(%rsp)\n"
        "	movq %r10, 40(%rsp)\n"
        "	movq %rbp, 48(%rsp)\n"
        "	movq %rbx, 56(%rsp)\n"
        "	movq %rax, 64(%rsp)\n"
        "	movq %rdi, 72(%rsp)\n"
        "	movq %rsi, 80(%rsp)\n"
        "	movq %rdx, 88(%rsp)\n"
        "	movq %rcx, 96(%rsp)\n"
        "	movq %r8, 104(%rsp)\n"
        "	movq %r9, 112(%rsp)\n"
        "	movq 176(%rsp), %rax\n"          /* the flags pushfq saved */
        "	movq %rax, 152(%rsp)\n"          /* tf_rflags */
        "	movq 184(%rsp), %rax\n"          /* the return address: site + 5 */
        "	subq $5, %rax\n"
        "	movq %rax, 136(%rsp)\n"          /* tf_rip: the site */
        "	leaq 192(%rsp), %rax\n"
        "	movq %rax, 160(%rsp)\n"          /* tf_rsp: as it was at the site */
        "	movq %rsp, %rdi\n"               /* regs: the frame */
        "	movq 136(%rsp), %rsi\n"          /* pc: the site */
        "	movq %rbp, %rdx\n"               /* fp */
        "	movq %gs:0, %rcx\n"
        "	movl 24(%rcx), %ecx\n"           /* cpu: curcpu()->cpu_id */
        "	movq %rsp, %rbx\n"
        "	andq $-16, %rsp\n"
        "	call sdt_fire_regs\n"
        "	movq %rbx, %rsp\n"
        "	movq 0(%rsp), %r15\n"
        "	movq 8(%rsp), %r14\n"
        "	movq 16(%rsp), %r13\n"
        "	movq 24(%rsp), %r12\n"
        "	movq 32(%rsp), %r11\n"
        "	movq 40(%rsp), %r10\n"
        "	movq 48(%rsp), %rbp\n"
        "	movq 56(%rsp), %rbx\n"
        "	movq 64(%rsp), %rax\n"
        "	movq 72(%rsp), %rdi\n"
        "	movq 80(%rsp), %rsi\n"
        "	movq 88(%rsp), %rdx\n"
        "	movq 96(%rsp), %rcx\n"
        "	movq 104(%rsp), %r8\n"
        "	movq 112(%rsp), %r9\n"
        "	addq $176, %rsp\n"
        "	popfq\n"
        "	ret\n"
        ".size sdt_isa_tramp, . - sdt_isa_tramp\n"
        ".popsection\n");
extern char sdt_isa_tramp[];

/*
 * sdt_isa_tramp0: called from an enabled site of a probe without
 * arguments ([rsp] = site + 5).  Saves the flags and the nine registers
 * the SysV ABI lets a callee clobber, turns interrupts off, calls
 * sdt_fire_noargs(-, cpu, -, site, %rbp) (in dtrace_probe_frame's
 * argument registers), and returns with every register and
 * flag as it found them.  (Like fbt's jump trampoline it leaves the stack
 * as it is: the kernel is built with -mgeneral-regs-only, so nothing it
 * runs needs 16-byte alignment.)
 */
__asm__(".pushsection .text.notrace.sdt_tramp, \"ax\", @progbits\n"
        ".globl sdt_isa_tramp0\n"
        "sdt_isa_tramp0:\n"
        "	pushfq\n"
        "	cli\n"
        "	pushq %rax\n"
        "	pushq %rcx\n"
        "	pushq %rdx\n"
        "	pushq %rsi\n"
        "	pushq %rdi\n"
        "	pushq %r8\n"
        "	pushq %r9\n"
        "	pushq %r10\n"
        "	pushq %r11\n"
        "	movq 80(%rsp), %rcx\n"           /* the return address: site + 5 */
        "	subq $5, %rcx\n"                 /* pc: the site */
        "	movq %rbp, %r8\n"                /* fp */
        "	movl %gs:24, %esi\n"             /* cpu: curcpu()->cpu_id (GS base is the struct cpu) */
        "	call sdt_fire_noargs\n"
        "	popq %r11\n"
        "	popq %r10\n"
        "	popq %r9\n"
        "	popq %r8\n"
        "	popq %rdi\n"
        "	popq %rsi\n"
        "	popq %rdx\n"
        "	popq %rcx\n"
        "	popq %rax\n"
        "	popfq\n"
        "	ret\n"
        ".size sdt_isa_tramp0, . - sdt_isa_tramp0\n"
        ".popsection\n");
extern char sdt_isa_tramp0[];

_Static_assert(sizeof(struct trapframe) == 176 && TF_OFF(tf_rflags) == 152 &&
               TF_OFF(tf_rip) == 136 && TF_OFF(tf_rsp) == 160 && TF_OFF(tf_r9) == 112,
               "sdt_isa_tramp's offsets follow struct trapframe");

static int sdt_call_sites;                   /* sites armed with a call now */

_Static_assert(offsetof(struct cpu, cpu_id) == 24, "sdt_isa_tramp reads cpu_id at 24");

/* patch_step: write bytes at addr, then make every CPU see them. */
static bool patch_step(uint64_t addr, const uint8_t *bytes, size_t len)
{
	if (!text_patch((void *)addr, bytes, len))
		return false;
	text_patch_sync();
	return true;
}

/* call_arm: the NOP at addr becomes `call tramp` (saved: SDT_ISA_SAVED_CALL). */
static bool call_arm(uint64_t addr, uint32_t *saved, const char *tramp)
{
	static const uint8_t trap = 0xcc;
	uint8_t call[SDT_ISA_SITE_LEN] = { 0xe8 };
	int64_t rel = (int64_t)((uint64_t)tramp - (addr + SDT_ISA_SITE_LEN));
	int32_t r32 = (int32_t)rel;

	if (!sdt_isa_call_on || rel != r32 || !sdt_isa_site_ok(addr))
		return false;
	memcpy(call + 1, &r32, 4);
	if (!patch_step(addr, &trap, 1))
		return false;
	if (!patch_step(addr + 1, call + 1, 4) || !patch_step(addr, call, 1)) {
		static const uint8_t nop5[SDT_ISA_SITE_LEN] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
		patch_step(addr + 1, nop5 + 1, 4);   /* cannot happen (text_patch refuses only non-text) */
		patch_step(addr, nop5, 1);
		return false;
	}
	*saved = SDT_ISA_SAVED_CALL | 0x0f;
	sdt_call_sites++;
	return true;
}

bool sdt_isa_call_arm(uint64_t addr, uint32_t *saved)
{
	return call_arm(addr, saved, sdt_isa_tramp);
}

static int sdt_call_noargs;                  /* ... of them calling sdt_isa_tramp0 */

bool sdt_isa_call_arm_noargs(uint64_t addr, uint32_t *saved)
{
	if (!call_arm(addr, saved, sdt_isa_tramp0))
		return false;
	sdt_call_noargs++;
	return true;
}

int sdt_isa_call_noargs_sites(void)
{
	return sdt_call_noargs;
}

/* call_target: where the call at addr goes. */
static uint64_t call_target(uint64_t addr)
{
	int32_t r32;

	memcpy(&r32, (const void *)(addr + 1), 4);
	return addr + SDT_ISA_SITE_LEN + (uint64_t)(int64_t)r32;
}

/* sdt_isa_call_disarm: the call at addr becomes the NOP again, trap byte first. */
bool sdt_isa_call_disarm(uint64_t addr)
{
	static const uint8_t trap = 0xcc;
	static const uint8_t nop5[SDT_ISA_SITE_LEN] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	bool noargs = call_target(addr) == (uint64_t)sdt_isa_tramp0;

	if (!patch_step(addr, &trap, 1) || !patch_step(addr + 1, nop5 + 1, 4) ||
	    !patch_step(addr, nop5, 1))
		return false;
	sdt_call_sites--;
	sdt_call_noargs -= noargs;
	return true;
}

int sdt_isa_call_sites(void)
{
	return sdt_call_sites;
}
