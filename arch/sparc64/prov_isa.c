/*
 * prov_isa.c - sparc64: the machine halves of sdt and fbt (kernel/prov_isa.h).
 *
 * A probe site is armed by replacing its instruction word with `ta 0x70`
 * through text_patch (the direct map's alias, then flush).  The trap
 * reaches sparc64_probe_trap (trap.c), which describes the trapped state
 * as a struct prov_trap: the arguments are the trapped window's %o0-%o5,
 * pt_regs the 32 integer registers as sdt_isa_regindex numbers them
 * (%g0-%g7, %o0-%o7, %l0-%l7, %i0-%i7; the %l and %i registers are read
 * from the window's save area after flushw).
 *
 * sdt: a disabled site is one `nop`; resuming after it skips exactly it.
 * fbt: not yet on sparc64 (fbt_isa_scan refuses every function, so fbt
 * makes no probes); the paper's design, a `ba,a` to a per-probe trampoline,
 * is described in docs/sparc64.md as the next step.
 */
#include "arch/arch.h"
#include "arch/sparc64/sparc64.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"

#define INSN_NOP       0x01000000u
#define INSN_TA_PROBE  0x91d02070u     /* ta 0x70 */

extern struct trap_frame *sparc64_intr_frame;    /* trap.c */

int fbt_isa_scan(uint64_t addr, uint64_t size, struct fbt_isa_func *out)
{
	(void)addr;
	(void)size;
	memset(out, 0, sizeof(*out));
	return -1;
}

uint64_t fbt_isa_entry_copy(uint64_t addr)
{
	(void)addr;
	return 0;
}

static bool word_at(uint64_t addr, uint32_t *w)
{
	extern char _text_start[], _text_end[];

	if ((addr & 3) || addr < (uint64_t)_text_start || addr + 4 > (uint64_t)_text_end)
		return false;
	*w = *(const volatile uint32_t *)addr;
	return true;
}

bool prov_isa_arm(uint64_t addr, uint32_t *saved)
{
	uint32_t w, ta = INSN_TA_PROBE;

	if (!word_at(addr, &w) || w == INSN_TA_PROBE)
		return false;
	*saved = w;
	uint64_t fl = arch_irq_save();
	bool ok = text_patch((void *)addr, &ta, 4);
	arch_irq_restore(fl);
	return ok;
}

bool prov_isa_disarm(uint64_t addr, uint32_t saved)
{
	uint32_t w;

	if (!word_at(addr, &w))
		return false;
	uint64_t fl = arch_irq_save();
	bool ok = text_patch((void *)addr, &saved, 4);
	arch_irq_restore(fl);
	return ok;
}

bool sdt_isa_site_ok(uint64_t addr)
{
	uint32_t w;

	return word_at(addr, &w) && w == INSN_NOP;
}

int sdt_isa_regindex(const char *name)
{
	static const char kinds[] = "goli";

	if (name[0] != '%' || name[1] == 0 || name[2] < '0' || name[2] > '7' || name[3] != 0) {
		if (strcmp(name, "%sp") == 0)
			return 14;
		if (strcmp(name, "%fp") == 0)
			return 30;
		return -1;
	}
	for (int k = 0; k < 4; k++)
		if (name[1] == kinds[k])
			return k * 8 + (name[2] - '0');
	return -1;
}

/* sparc64_probe_trap: a `ta 0x70`: an sdt (or fbt) site's trap.  Probe context. */
bool sparc64_probe_trap(struct trap_frame *tf)
{
	uint64_t regs[32];
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
	pt.pt_fp = regs[30];
	pt.pt_sp = (const uint64_t *)(tf->tf_o[6] + STACK_BIAS);
	pt.pt_cpu = 0;
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
	return true;
}

const uint64_t *prov_isa_intr_retslot(void)
{
	return NULL;
}
