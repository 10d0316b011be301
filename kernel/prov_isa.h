/*
 * prov_isa.h - the machine halves of the instrumenting providers.
 *
 * fbt and sdt (trace/prov_fbt.c, trace/prov_sdt.c) are portable: they decide
 * which probes exist, keep them in a hash by address and fire them.  What an
 * instruction is, how a trap is planted and how the displaced instruction is
 * replayed is the machine's business (arch/<isa>/fbt_isa.c, sdt_isa.c).
 * This header is where the two halves meet; it lives in kernel/ because both
 * portable code and arch/ may include kernel headers.
 *
 * The flow of one probe hit:
 *
 *   patched instruction -> trap -> arch: fill a struct prov_trap
 *        -> fbt_invop(pt) / sdt_invop(pt)   (portable: find, fire with
 *           dtrace_probe_frame, choose how to resume)
 *        -> arch: resume as pt->pt_resume says
 *
 * A probe trap inside a probe firing (a probe on something the framework
 * calls) resumes like any other; dtrace_probe_frame refuses to fire it and
 * counts the re-entry.
 *
 * Everything here that runs at a probe hit is probe context: interrupts off,
 * no locks, no allocation, and nothing fbt may instrument (the callees live
 * in the notrace region of linker.ld).
 */
#ifndef SONDE_PROV_ISA_H
#define SONDE_PROV_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"

/* Boot: register the providers (kmain calls these after dtrace_init). */
void fbt_init(void);                 /* trace/prov_fbt.c */
void sdt_init(void);                 /* trace/prov_sdt.c */
void profile_init(void);             /* trace/prov_profile.c */
void lockstat_init(void);            /* trace/prov_lockstat.c */
void syscall_prov_init(void);        /* trace/prov_syscall.c */
void proc_prov_init(void);           /* trace/prov_proc.c */

/* How the machine resumes after a probe trap. */
enum prov_resume {
	PROV_RESUME_AT,              /* continue at pt_resume_pc (entry: out-of-line copy; sdt: after the site) */
	PROV_RESUME_RETURN,          /* replay a function return (x86: pop the return address) */
};

/* One probe trap, as the machine saw it (filled by arch, read by providers). */
struct prov_trap {
	uint64_t pt_pc;              /* address of the patched instruction */
	const uint64_t *pt_arg;      /* the six argument registers, in order (function entry) */
	const uint64_t *pt_regs;     /* every saved register, indexed as sdt_isa_regindex() says */
	uint64_t pt_rval;            /* return-value register */
	uint64_t pt_fp;              /* frame pointer at the instruction */
	const uint64_t *pt_sp;       /* stack pointer there: at a function boundary (entry,
	                                return) pt_sp[0] is the return address */
	int pt_cpu;                  /* this CPU's index */
	enum prov_resume pt_resume;  /* out: what to do */
	uint64_t pt_resume_pc;       /* out: for PROV_RESUME_AT */
};

/*
 * fbt_invop, sdt_invop: is pt->pt_pc one of the provider's sites?  If so, fire
 * its probe if enabled, set pt_resume (and pt_resume_pc) and return true.
 * Implemented by the portable providers; probe context.
 */
/* prov_isa_trap_count: probe traps taken so far, all CPUs (benchmarks).  Any context. */
uint64_t prov_isa_trap_count(void);

bool fbt_invop(struct prov_trap *pt);
bool sdt_invop(struct prov_trap *pt);
/*
 * sdt_fire_regs: the call path's firing (no trap): the site at pc, whose
 * registers are saved at regs (indexed as sdt_isa_regindex() says), fires
 * if armed.  Implemented by trace/prov_sdt.c; probe context.
 */
void sdt_fire_regs(const uint64_t *regs, uint64_t pc, uint64_t fp, int cpu);
/*
 * sdt_fire_noargs: the same for a site of a probe without arguments, armed
 * with sdt_isa_call_arm_noargs (its trampoline saves no register file).
 * Its arguments sit where dtrace_probe_frame's do (cpu second, pc fourth,
 * fp fifth; the first and third unused), so that its tail call into it
 * moves almost nothing.
 */
void sdt_fire_noargs(uint32_t unused0, int cpu, const void *unused2, uint64_t pc, uint64_t fp);

/* ---- fbt, machine half (arch/<isa>/fbt_isa.c) ---- */

#define FBT_ISA_MAXRET 64            /* return sites fbt probes per function */

/* What fbt_isa_scan found in a function. */
struct fbt_isa_func {
	bool fi_entry_ok;            /* the first instruction can be replayed out of line */
	bool fi_frame;               /* it is the standard prologue (push %rbp; mov %rsp,%rbp) */
	int fi_nret;                 /* return sites */
	uint32_t fi_ret[FBT_ISA_MAXRET];   /* their offsets from the function start */
};

/*
 * fbt_isa_scan: decode the function at addr (size bytes) from start to end.
 * Returns 0 and fills *out, or -1 if the bytes cannot all be decoded (the
 * function then gets no probes) or it has more return sites than fit.
 * Thread context.
 */
int fbt_isa_scan(uint64_t addr, uint64_t size, struct fbt_isa_func *out);

/*
 * fbt_isa_entry_copy: an out-of-line copy of the first instruction at addr
 * followed by a jump back to the next one (built once, kept forever, in a
 * text area fbt never instruments).  Returns its address, or 0 if the area
 * is full or the instruction cannot be moved.  Thread context.
 */
uint64_t fbt_isa_entry_copy(uint64_t addr);

/*
 * prov_isa_arm: plant the trap instruction at addr, saving the bytes it
 * replaces in *saved; prov_isa_disarm puts them back.  Return false if addr
 * is not kernel text (or, for arm, if a trap is there already: it is never
 * saved as the original).  Thread context; callers serialise (the framework
 * lock), the write itself runs with interrupts off.
 */
bool prov_isa_arm(uint64_t addr, uint32_t *saved);
bool prov_isa_disarm(uint64_t addr, uint32_t saved);

/*
 * Jump-optimised entry sites (x86_64: arch/x86_64/fbt_jump.c; a machine
 * without them has weak stand-ins in trace/prov_fbt.c that refuse every site).
 *
 * fbt_isa_jump_prepare: may the entry site at addr (a function of size
 * bytes) be patched with a jump into a per-site stub?  If so, build the stub
 * (once; kept forever), set *copy to the relocated displaced instructions
 * (where the trap path resumes for this site too) and return the site's
 * index; else -1 (the site stays on the trap).  site is prov_fbt's cookie
 * for fbt_fire_entry.
 * fbt_isa_jump_arm: plant int3 at the site (jump: and queue it to become a
 * jump at the next prov_isa_optimize); fbt_isa_jump_disarm: take the probe
 * out (the original bytes are back after the next prov_isa_optimize at the
 * latest; until then the site traps and fires nothing).
 * prov_isa_optimize: the framework calls it after each batch of enablings
 * or disablings (after text_patch_sync); it patches and waits (it may sleep).
 * fbt_jump_note_target: fbt_isa_scan saw a direct branch to target, outside
 * the function it was decoding.
 * Thread context, under dtrace_lock.
 */
#define FBT_JUMP_WHY_MAX 12
struct fbt_jump_stats {
	int fjs_stubs;               /* sites with a stub (could jump) */
	int fjs_jumps;               /* sites holding a jump now */
	int fjs_refused;             /* sites that may not jump (prologue, branch into it) */
	int fjs_full;                /* sites refused because the stub area was full */
	int fjs_busy;                /* times a site stayed on int3: a thread was inside */
	int fjs_notes;               /* branches into other functions' prologues noted */
	int fjs_unjumps_stopped;     /* jumps (entry and return) put back with the other CPUs stopped */
	int fjs_unjumps_ordered;     /* batches put back the ordered way: a CPU could not be stopped */
	/* return sites (fbt_isa_jump_ret_prepare); the figures above are entry sites only */
	int fjs_ret_stubs;           /* return sites with a stub */
	int fjs_ret_jumps;           /* return sites holding a jump now */
	int fjs_ret_refused;         /* return sites that may not jump */
	int fjs_ret_padded;          /* of the stubs: the jmp covers the ret and the padding after it */
	int fjs_ret_notes;           /* branches into other functions' bodies noted */
	/* the refusals by reason (fbt_isa_jump_why names them), entry and return sites */
	int fjs_why[FBT_JUMP_WHY_MAX];
	int fjs_ret_why[FBT_JUMP_WHY_MAX];
};
/* fbt_isa_jump_why: the name of refusal reason i (ret: a return site's), or NULL past the last. */
const char *fbt_isa_jump_why(bool ret, int i);
/* fbt_jump_park: take jumps out with the other CPUs stopped (default); false: the ordered way (self-tests). */
extern bool fbt_jump_park;
int fbt_isa_jump_prepare(uint64_t addr, uint64_t size, void *site, uint64_t *copy);
bool fbt_isa_jump_arm(int index, bool jump);
bool fbt_isa_jump_disarm(int index);
void prov_isa_optimize(void);
void fbt_isa_jump_forget(int index);     /* self-tests: the caller puts the bytes back itself */
void fbt_jump_note_target(uint64_t target);
void fbt_isa_jump_stats(struct fbt_jump_stats *out);
/*
 * fbt_fire_entry: fire the entry probe of site (fbt_isa_jump_prepare's
 * cookie) if it is armed: the jump path's firing (trace/prov_fbt.c).
 * Probe context.
 */
void fbt_fire_entry(void *site, int cpu, const uint64_t *args, uint64_t pc, uint64_t fp,
                    const uint64_t *sp);
extern bool fbt_jump_on;             /* trace/prov_fbt.c: false with the boot flag nofbtjump */
/*
 * Jump-optimised return sites (x86_64: arch/x86_64/fbt_jump_ret.c; weak
 * stand-ins refuse every site elsewhere).  fbt_isa_jump_ret_prepare: may
 * the return site at ret (offset off in the function at func, size bytes)
 * be patched with a jump over the instructions that end in it?  If so,
 * build its stub (once; kept forever) and return its index for
 * fbt_isa_jump_arm/disarm/forget, as fbt_isa_jump_prepare does; else -1
 * (the site stays an int3 on the ret).  site is prov_fbt's cookie for
 * fbt_fire_return.  Thread context, under dtrace_lock.
 * fbt_fire_return: fire the return probe of site if it is armed, args its
 * six arguments (the ret's offset, the return value, zeros), pc the ret,
 * fp and sp the frame and stack pointers there ([sp] is the return
 * address): the jump path's firing (trace/prov_fbt.c).  Probe context.
 */
int fbt_isa_jump_ret_prepare(uint64_t ret, uint64_t func, uint64_t size, void *site);
void fbt_fire_return(void *site, int cpu, const uint64_t *args, uint64_t pc, uint64_t fp,
                     const uint64_t *sp);

/* ---- sdt, machine half (arch/<isa>/sdt_isa.c) ---- */

/* sdt_isa_site_ok: is addr a disabled SDT site (the 5-byte NOP)?  Thread context. */
bool sdt_isa_site_ok(uint64_t addr);
/* sdt_isa_site_len: the bytes a site takes (resume after them). */
#define SDT_ISA_SITE_LEN ARCH_SDT_SITE_LEN    /* arch/arch.h */
/* sdt_isa_regindex: the pt_regs index of the register called name ("%rbx"), or -1. */
int sdt_isa_regindex(const char *name);
/*
 * The call path: a machine may arm an sdt site as a direct call into its
 * firing path instead of a trap (x86_64: sdt_isa.c, through prov_isa_arm).
 * sdt_isa_call_on (trace/prov_sdt.c, default true) = false keeps every
 * site on the trap: the self-tests run both.  sdt_isa_call_sites(): sites
 * armed with a call now.  Thread context, under the framework lock.
 */
#define SDT_ISA_SAVED_CALL 0x100u    /* in prov_isa_arm's *saved: the site holds a call */
bool sdt_isa_call_arm(uint64_t addr, uint32_t *saved);
/*
 * sdt_isa_call_arm_noargs: sdt_isa_call_arm for a site whose probe takes
 * no arguments: the call goes to a trampoline that saves only what C code
 * may clobber and fires through sdt_fire_noargs.  Disarmed as any call.
 */
bool sdt_isa_call_arm_noargs(uint64_t addr, uint32_t *saved);
bool sdt_isa_call_disarm(uint64_t addr);
int sdt_isa_call_sites(void);
int sdt_isa_call_noargs_sites(void);         /* ... of them armed with sdt_isa_call_arm_noargs */
extern bool sdt_isa_call_on;

/* ---- profile, machine half (arch/<isa>/fbt_isa.c) ---- */

/*
 * prov_isa_intr_frame: the PC and frame pointer the current interrupt
 * interrupted on this CPU; false (and zeros) outside an interrupt handler.
 * *user is set when the interrupted code was user mode.  Interrupt context.
 */
bool prov_isa_intr_frame(uint64_t *pc, uint64_t *fp, bool *user);
/*
 * prov_isa_intr_retslot: the stack slot holding the interrupted kernel
 * function's return address when that function has no frame of its own at
 * the interrupted PC (a frameless leaf such as the idle loop's halt, or in
 * its prologue or at its return), else NULL: stack() then shows the caller
 * the frame walk would skip.  Interrupt context.
 */
const uint64_t *prov_isa_intr_retslot(void);

#endif
