/*
 * dif/dif_jit.h: translating a DIFO into machine code (a DIF JIT).
 *
 * The interpreter (dif_emulate) is the reference and runs everything.  A
 * machine may also translate a validated DIFO into native code.  The
 * register-only core of DIF (arithmetic, logic, shifts, mov, cmp and tst,
 * the branches, setx, sets, ldgs of arg0..arg9, nop, ret) becomes inline
 * machine code, and the four divisions too, whose division by zero is
 * reported as the interpreter reports it (DIF_FAULT_DIVZERO, its pc,
 * address 0).  Every other instruction (loads and their safe-load checks,
 * stores into scratch, variables of every scope, built-ins, the tuple
 * stack, subroutine calls, scmp, allocs, copys) becomes a call out to
 * dif_jit_callout, which runs that one instruction through the
 * interpreter's own code on the native code's registers: the same checks,
 * the same faults with the same pc and address, the same side effects.
 * So a translated program has no run-time check the interpreter makes
 * that it lacks.
 *
 * The translated code is position independent within itself (branches are
 * relative; the callout and the DIFO are reached by absolute address),
 * reads st's arguments, writes *rval and st's fault and tuple count, and
 * reaches anything else only through dif_jit_callout.  Results, side
 * effects and faults are those of dif_emulate on the same state
 * (tests/dif/dift.c -jit and the DIF fuzzer check both ways).  ds_insns
 * is not counted for a translated run.
 *
 * Where the code goes is the embedder's business: the kernel copies it
 * into an executable area through text_patch (trace/jit.c), the host test
 * into an mmap'd page made executable afterwards.
 */
#ifndef SONDE_DIF_JIT_H
#define SONDE_DIF_JIT_H

#include "dif/dif.h"

/*
 * A translated DIFO, run on st as dif_emulate(dp, st, rval) would be: 0
 * with the value in *rval, or a fault code with the fault (code, pc,
 * address) in st->ds_fault.  Probe context: no locks, bounded (forward
 * branches only), interrupts as the caller has them; st must be set up as
 * for the interpreter when the DIFO does more than arithmetic on its
 * arguments (dif_jit_plain says when it does not).
 */
typedef int (*dif_jit_fn)(dif_state_t *st, uint64_t *rval);

/*
 * dif_jit_callout: what translated code calls for an instruction it does
 * not do inline: dp's instruction pc on the register file regs[0..7] and
 * the condition pair regs[8], regs[9], exactly as dif_emulate runs it.
 * Returns 0 or the fault code (recorded in st->ds_fault).  Probe context.
 */
int dif_jit_callout(dif_state_t *st, const dif_difo_t *dp, uint32_t pc, uint64_t *regs);

/*
 * dif_jit_plain: does dp use only what translated code does inline
 * (registers, its arguments, constants), so that it needs none of st's
 * set-up but ds_args?  Any context; pure.
 */
bool dif_jit_plain(const dif_difo_t *dp);

/*
 * dif_jit_translate: machine code for dp into buf (at most cap bytes).
 * Returns its length, or 0 when dp uses something the translator leaves to
 * the interpreter, or the code would not fit.  dp must have passed
 * dif_validate().  Any context; pure.  Machines without a JIT: always 0.
 */
size_t dif_jit_translate(const dif_difo_t *dp, uint8_t *buf, size_t cap);

#endif
