/*
 * pid_isa.h - the two halves of the pid provider, and the user-stack and
 * user-register readers the framework uses in any probe.
 *
 * trace/prov_pid.c (portable) decides which probes a process has, keeps
 * its sites in a hash by address and fires them; arch/<isa>/pid_isa.c
 * knows instructions: which can be probed, how each is replayed after the
 * trap (emulated in the kernel, or run out of line from the process's
 * scratch page), and how the user's registers and frames are laid out.
 *
 * One hit:
 *
 *   the trap (int3; ta 0x71 on sparc64) in user text -> trap.c -> pid_isa_trap(tf)
 *        -> pid_invop(&pt)   (portable: find the site of this process at
 *           pt.pt_pc, fire its probes, hand back the displaced instruction)
 *        -> arch: replay it (emulate, or step it out of line), resume
 *
 * A trap that no site claims is the program's own int3: it gets SIGTRAP,
 * exactly as without the provider.
 */
#ifndef SONDE_PID_ISA_H
#define SONDE_PID_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct proc;
struct arch_as;

/* How a probed instruction is replayed after its trap. */
enum pid_isa_how {
	PID_HOW_NONE = 0,            /* not probed (int3, system instructions, indirect calls...) */
	PID_HOW_EMULATE,             /* done in the kernel: push, mov %rsp,%rbp, mov $imm32, nop, ret,
	                                jmp, call, jcc */
	PID_HOW_STEP,                /* copied to the scratch page, followed by a jump back */
};

/* One decoded instruction of a probed program (the original bytes, kept by the site). */
struct pid_isa_insn {
	uint8_t pi_len;
	uint8_t pi_how;              /* enum pid_isa_how */
	bool pi_ret;                 /* a function return: a return probe's site */
	uint8_t pi_bytes[15];
};

/*
 * pid_isa_decode: decode the instruction at p (avail bytes readable,
 * which sit at user address addr) into *pi.  Returns its length, or -1 if
 * it cannot be decoded.  Pure; thread context.
 */
int pid_isa_decode(const uint8_t *p, size_t avail, uint64_t addr, struct pid_isa_insn *pi);

/*
 * pid_isa_tailcall: is pi, at user address addr in the function [lo, hi),
 * a jump out of that function (a tail call: gcc's `jmp other` in place of
 * `call other; ret`)?  Such a function never runs a `ret` of its own, so
 * its return probe sits on the jump too, as DTrace's pid provider places
 * it.  Pure; thread context.
 */
bool pid_isa_tailcall(const struct pid_isa_insn *pi, uint64_t addr, uint64_t lo, uint64_t hi);

/* What the machine saw at a pid probe trap (filled by arch, read by pid_invop). */
struct pid_trap {
	int pt_pid;
	struct arch_as *pt_as;       /* the process's address space (tells an exec'd image apart) */
	uint64_t pt_pc;              /* address of the probed instruction */
	const uint64_t *pt_arg;      /* the six argument registers, in order */
	const uint64_t *pt_regs;     /* every saved register, indexed as sdt_isa_regindex() says */
	uint64_t pt_rval;            /* the return-value register */
	int pt_cpu;
	bool pt_entry;               /* set by pid_invop while an entry probe fires (ustack's first frames) */
	uint8_t pt_fire;             /* enum pid_fire: which of the site's probes fire now */
};

/*
 * Which probes of a site one pid_invop call fires.  A machine whose return
 * value is final at the return instruction fires them all at once
 * (x86_64); one with a delay slot after it (sparc64: `ret; restore %o0,
 * 1, %o0`) fires the others at the trap and the return probe in a second
 * call, once the delay slot has run.
 */
enum pid_fire {
	PID_FIRE_ALL = 0,            /* every enabled probe of the site */
	PID_FIRE_BEFORE,             /* all but the return probe */
	PID_FIRE_RETURN,             /* the return probe alone (pt_rval final) */
};

/*
 * pid_invop: is pt->pt_pc one of the current process's pid sites?  If so,
 * fire its enabled probes and return the displaced instruction (never
 * NULL for a site, armed or not, so that a trap that raced a disable still
 * replays it); NULL if not ours.  Probe context (interrupts off).
 */
const struct pid_isa_insn *pid_invop(struct pid_trap *pt);

/*
 * pid_isa_usdt: is text (ARCH_USDT_SITE_LEN bytes, at user address addr)
 * a USDT site of kind (0 a probe, 1 an is-enabled test)?  If so, *pi is
 * what its trap replays: the probe's NOP, or the test's answer "yes".
 * Pure; thread context.
 */
bool pid_isa_usdt(const uint8_t *text, uint64_t addr, int kind, struct pid_isa_insn *pi);

/*
 * pid_isa_trap: a #BP from user mode (trap.c).  If a pid site claims it,
 * fire, replay the instruction and return true with *tf set to resume;
 * false otherwise (the caller delivers SIGTRAP).  A replay that meets bad
 * user memory kills the process as the instruction itself would have.
 */
struct trapframe;
bool pid_isa_trap(struct trapframe *tf);

/*
 * pid_isa_fault_pc: the PC to report for a user fault at pc: the original
 * instruction's address when pc is the out-of-line copy of one (a stepped
 * instruction faulted), else pc.  The faulting thread, interrupts off.
 */
uint64_t pid_isa_fault_pc(uint64_t pc);

/*
 * pid_isa_uregs: uregs[idx] of the current thread's user registers, with
 * DTrace's R_* numbering (arch/<isa>/dlib/regs.d).  Returns false for an
 * index out of range or a thread that is not a process's.  Probe context.
 */
bool pid_isa_uregs(uint64_t idx, uint64_t *val);

/*
 * pid_isa_ustack: the current process's user stack: its PC, then the
 * return addresses of the frame-pointer chain, at most max into pcs.
 * Every load is checked; a corrupt chain ends the walk.  Returns the
 * count (0 outside a process).  Probe context.
 */
int pid_isa_ustack(uint64_t *pcs, int max);

/* Boot: the provider registers (trace/prov_pid.c). */
void pid_prov_init(void);

#endif
