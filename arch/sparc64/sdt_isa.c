/*
 * sdt_isa.c - the sparc64 half of sdt.
 *
 * A site (kernel/sdt.h) is one `nop` word (ARCH_SDT_NOP) written by the
 * assembler, so a disabled probe costs one nop.  Enabling plants `ta 0x70`
 * over it (prov_isa_arm, fbt_isa.c, which serves both providers as on
 * x86_64); the trap (sparc64_probe_trap, fbt_isa.c) resumes after the word,
 * skipping exactly it.  The probe's arguments stay in whatever registers the
 * compiler chose: the macro records each one's name ("%l3") next to the
 * site, and sdt_isa_regindex() turns it into an index into the 32 integer
 * registers the trap saves (%g0-%g7, %o0-%o7, %l0-%l7, %i0-%i7; the same
 * order as arch/sparc64/dlib/regs.d).  There is no call path on sparc64:
 * every site traps.
 *
 * Tests: self-tests sdt_* (tests/kernel/prov_sdt_selftest.c) under
 *        make sparc64-check, tests/d/sdt
 */
#include "arch/arch.h"
#include "arch/sparc64/fbt_isa.h"
#include "kernel/klib.h"
#include "kernel/prov_isa.h"

/* sdt_isa_site_ok: is addr a site as kernel/sdt.h writes it, one nop word? */
bool sdt_isa_site_ok(uint64_t addr)
{
	uint32_t w;

	return sparc64_text_word(addr, &w) && w == INSN_NOP;
}

/* sdt_isa_regindex: a register name the macro recorded, as an index into pt_regs. */
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
