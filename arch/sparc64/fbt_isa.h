/*
 * fbt_isa.h - the sparc64 probe trap and text words (fbt and sdt share them).
 *
 * An armed sdt site, and an fbt site a trampoline cannot take, holds
 * `ta 0x70`; trap.c hands that trap to sparc64_probe_trap() before treating
 * it as a fault.  fbt_isa.c owns the trap, arming and the text reads;
 * sdt_isa.c (which sites are sdt's, register names) reads words through it.
 */
#ifndef SONDE_SPARC64_FBT_ISA_H
#define SONDE_SPARC64_FBT_ISA_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/sparc64/sparc64.h"

#define INSN_NOP       0x01000000u     /* a disabled sdt site (ARCH_SDT_NOP) */
#define INSN_TA_PROBE  0x91d02070u     /* ta 0x70: the probe trap */

/* sparc64_text_word: the word at addr if it is a word of kernel text.  Any context. */
bool sparc64_text_word(uint64_t addr, uint32_t *w);

/*
 * sparc64_probe_trap: a `ta 0x70` in the kernel.  If it hit an sdt (or fbt)
 * site, fire the probe, set *tf to resume after it and return true; false
 * if the trap is not ours (trap.c reports it as a fault).  Probe context.
 */
bool sparc64_probe_trap(struct trap_frame *tf);

#endif
