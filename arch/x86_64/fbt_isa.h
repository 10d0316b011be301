/*
 * fbt_isa.h - the x86_64 probe trap (fbt and sdt share it).
 *
 * An enabled fbt or sdt site holds int3 (0xCC) in its first byte.  trap.c
 * hands every #BP to prov_isa_trap() before treating it as a fault.
 */
#ifndef SONDE_FBT_ISA_H
#define SONDE_FBT_ISA_H

#include <stdbool.h>
#include "arch/x86_64/x86.h"

#define FBT_PATCHVAL 0xcc            /* int3 */

/*
 * prov_isa_trap: a #BP in the kernel.  If it hit an fbt or sdt site, fire
 * the probe, rewrite *tf so that the interrupted code resumes as if the
 * displaced instruction had run, and return true; false if the int3 is not
 * ours (a real breakpoint: the fault printer reports it).  Probe context.
 */
bool prov_isa_trap(struct trapframe *tf);

/* prov_isa_intr_enter/exit: trap.c brackets device interrupts with these (profile's arg0). */
struct trapframe *prov_isa_intr_enter(struct trapframe *tf);
void prov_isa_intr_exit(struct trapframe *prev);

#endif
