/*
 * dif/dif_jit.h: translating a DIFO into machine code (a DIF JIT).
 *
 * The interpreter (dif_emulate) is the reference and runs everything.  A
 * machine may also translate a validated DIFO into native code when the
 * DIFO uses only what the translator knows: today the register-only core
 * of DIF (arithmetic, logic, shifts, mov, cmp and tst, the branches, setx,
 * ldgs of arg0..arg9, nop, ret) and the four divisions, whose division by
 * zero is reported as the interpreter reports it (DIF_FAULT_DIVZERO, its
 * pc, address 0).  Anything else (loads, stores, variables, calls, strings,
 * the tuple stack) keeps the DIFO on the interpreter, so a translated
 * program has no run-time check the interpreter makes that it lacks.
 *
 * The translated code is position independent (branches are relative and
 * stay inside it), reads only args[0..9], writes only *rval and *fpc, and
 * touches no memory of its own but its stack frame.  Results, registers
 * written and faults are those of dif_emulate on the same arguments
 * (tests/dif/dift.c -jit checks every vector both ways).  ds_insns is not
 * counted for a translated run.
 *
 * Where the code goes is the embedder's business: the kernel copies it
 * into an executable area through text_patch (trace/jit.c), the host test
 * into an mmap'd page made executable afterwards.
 */
#ifndef SONDE_DIF_JIT_H
#define SONDE_DIF_JIT_H

#include "dif/dif.h"

/*
 * A translated DIFO: 0 with the value in *rval, or a fault code with the
 * faulting instruction's index in *fpc.  Probe context: no locks, bounded
 * (forward branches only), interrupts as the caller has them.
 */
typedef int (*dif_jit_fn)(const uint64_t *args, uint64_t *rval, uint32_t *fpc);

/*
 * dif_jit_translate: machine code for dp into buf (at most cap bytes).
 * Returns its length, or 0 when dp uses something the translator leaves to
 * the interpreter, or the code would not fit.  dp must have passed
 * dif_validate().  Any context; pure.  Machines without a JIT: always 0.
 */
size_t dif_jit_translate(const dif_difo_t *dp, uint8_t *buf, size_t cap);

#endif
