/*
 * absent.c - sparc64: weak stand-ins for machine functions the port does
 * not have yet, so that the portable tree links.
 *
 * Portable code grew callers of these after the port was made: the pid
 * provider's machine half (kernel/pid_isa.h) and the address-space calls
 * of fork's copy-on-write and of pid's text pokes (arch/arch.h).  sparc64
 * has no user processes (user.c), so each one answers "nothing there":
 * no decodable instruction, no user registers, no user stack, no space
 * loaded, no page to make private, no poke.  None of them can be reached
 * with a process, because arch_as_create() never makes one.
 *
 * Every definition is weak: a real one (the user-mode half of the port)
 * replaces it at link time without this file changing.  This file holds
 * only stand-ins; it must never grow behaviour.
 */
#include "arch/arch.h"
#include "kernel/pid_isa.h"

#define ABSENT __attribute__((weak))

ABSENT int pid_isa_decode(const uint8_t *p, size_t avail, uint64_t addr, struct pid_isa_insn *pi)
{
	(void)p; (void)avail; (void)addr; (void)pi;
	return -1;
}

ABSENT bool pid_isa_uregs(uint64_t idx, uint64_t *val)
{
	(void)idx; (void)val;
	return false;
}

ABSENT int pid_isa_ustack(uint64_t *pcs, int max)
{
	(void)pcs; (void)max;
	return 0;
}

ABSENT bool arch_user_text_poke(struct arch_as *as, uint64_t va, uint8_t b, uint8_t *old)
{
	(void)as; (void)va; (void)b; (void)old;
	return false;
}

ABSENT void arch_as_flush(struct arch_as *as, uint64_t lo, uint64_t hi)
{
	(void)as; (void)lo; (void)hi;
}

ABSENT void arch_as_page_put(void *page)
{
	(void)page;
}

ABSENT void *arch_as_page_private(struct arch_as *as, uint64_t va)
{
	(void)as; (void)va;
	return NULL;
}

ABSENT struct arch_as *arch_as_current(void)
{
	return NULL;
}

ABSENT uint64_t arch_as_cpus(struct arch_as *as)
{
	(void)as;
	return 0;
}
