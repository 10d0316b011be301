/*
 * pid_isa.c - sparc64: the machine's half of the pid provider and of
 * ustack(), as far as it goes.
 *
 * No instruction is probed in user text yet (pid_isa_decode refuses every
 * one, so the pid provider offers no sites on sparc64).  ustack() walks the
 * user's frames: a trap from user mode flushes the user's windows to the
 * user's stack (traps.S), so each frame's save area holds its caller's
 * %sp (the saved %i6) and the call site (the saved %i7), read with checked
 * loads.  uregs[] is not offered.
 *
 * Tests: tests/e2e/test_sparc64_user.py (ustack()); make sparc64-user-check
 */
#include "arch/arch.h"
#include "arch/sparc64/sparc64.h"
#include "kernel/pid_isa.h"
#include "kernel/thread.h"

int pid_isa_decode(const uint8_t *p, size_t avail, uint64_t addr, struct pid_isa_insn *pi)
{
	(void)p; (void)avail; (void)addr; (void)pi;
	return -1;
}

uint64_t pid_isa_fault_pc(uint64_t pc) { return pc; }

bool pid_isa_uregs(uint64_t idx, uint64_t *val)
{
	(void)idx; (void)val;
	return false;
}

NOTRACE int pid_isa_ustack(uint64_t *pcs, int max)
{
	struct thread *t = curthread();
	int n = 0;

	if (t->t_proc == NULL || t->t_as == NULL || max <= 0)
		return 0;
	const struct trap_frame *tf =
		(const struct trap_frame *)((uint64_t)t->t_stack + THREAD_STACK_SIZE) - 1;
	pcs[n++] = tf->tf_tpc;
	uint64_t fp = tf->tf_o[6];
	while (n < max) {
		uint64_t w[2];
		if (!arch_user_probe(fp + STACK_BIAS + 14 * 8, sizeof(w)) ||
		    arch_safe_read(w, (const void *)(fp + STACK_BIAS + 14 * 8), sizeof(w)) < 0 || w[1] == 0)
			break;
		pcs[n++] = w[1];
		if (w[0] <= fp)
			break;                  /* stacks grow down: a caller's frame is above */
		fp = w[0];
	}
	return n;
}
