/*
 * fbt_jump.h - what jump-optimised fbt return sites (fbt_jump_ret.c) share
 * with the entry sites' machinery (fbt_jump.c).
 *
 * One table of sites, one stub area, one state machine (arm, disarm, the
 * batched, waited, int3-first patching of prov_isa_optimize) serve both: a
 * return site is a struct fbt_jsite like an entry site, only its stub is
 * laid out differently (fbt_jump_ret.c) and its jmp goes to the stub's
 * start.  fbt_jump.c never looks inside a stub after building it.
 *
 * Context: thread context under dtrace_lock (fbt_isa_jump_prepare's
 * callers), except fbt_jump_ret_resume: probe context (the trap).
 */
#ifndef SONDE_FBT_JUMP_H
#define SONDE_FBT_JUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/prov_isa.h"

/*
 * fbt_jump_claim: the next free site for a jmp at addr displacing len
 * bytes (its original bytes saved), prov_fbt's cookie site, and its stub's
 * address (*stub, FBT_JUMP_STUB bytes of int3).  Returns its index, or -1
 * (no room, counted; or an int3 is at addr already).  The site is not
 * counted as made until fbt_jump_keep.
 */
int fbt_jump_claim(uint64_t addr, unsigned len, void *site, uint64_t *stub);
/*
 * fbt_jump_keep: the claimed return site index is real: the trap resumes
 * at copy, the jmp goes to stub, pc is its ret (at FBT_JSITE_PC in its
 * struct fbt_jsite, where fbt_jump_rtramp reads it; fbt_fire_return's
 * cookie is at 16, as for fbt_jump_tramp).
 */
#define FBT_JSITE_PC 48
void fbt_jump_keep(int index, uint64_t copy, uint64_t stub, uint64_t pc);
/* fbt_jump_cookie: the address of site index's struct fbt_jsite (what a stub pushes). */
uint64_t fbt_jump_cookie(int index);
/*
 * fbt_jump_branch_into: does a branch of the function at addr (size
 * bytes), or a branch noted into another function's first bytes, land
 * inside (at, at + len), i.e. anywhere but at its first byte?  Also true
 * if the function has an indirect jmp or cannot be decoded.
 */
bool fbt_jump_branch_into(uint64_t addr, uint64_t size, uint64_t at, unsigned len);
/*
 * fbt_jump_branch_site_in: does a baggage branch site (kernel/baggage_site.h,
 * patched at run time) overlap (addr, addr + len)?  Such bytes must stay
 * where they are: neither entry nor return sites may displace them.
 */
bool fbt_jump_branch_site_in(uint64_t addr, unsigned len);

/*
 * fbt_jump_pristine_take: fbt_isa_scan's first call (fbt's first provide,
 * before fbt has patched anything) keeps a copy of the probed text.
 * fbt_jump_pristine: the copy of [addr, addr + size), or the live bytes if
 * there is no copy.  Decoding a function must read the copy: a jmp
 * planted inside it displaces whole instructions with five bytes, and
 * decoding its live bytes after one would go out of step.
 */
void fbt_jump_pristine_take(void);
const uint8_t *fbt_jump_pristine(uint64_t addr, uint64_t size);

/* fbt_jump_ret.c: fbt_isa_scan saw a branch to target outside the function it decodes. */
void fbt_jump_ret_note(uint64_t target);
/*
 * fbt_jump_ret_resume: if pc is the first byte of a return site's range
 * (where its int3 sits while it is not a jmp), the stub to resume in
 * (which runs the range and fires the probe if armed); else 0.  Probe
 * context (prov_isa_trap).
 */
uint64_t fbt_jump_ret_resume(uint64_t pc);
/* fbt_jump_ret.c: the return sites' own counts into *out (fbt_isa_jump_stats). */
void fbt_jump_ret_stats(struct fbt_jump_stats *out);
const char *fbt_jump_ret_why(int i);      /* fbt_isa_jump_why's return half */

/*
 * What both trampolines (fbt_jump_tramp, fbt_jump_rtramp) save around their
 * call into C, as assembler text: the flags (interrupts then off) and
 * every register a C function may clobber, the last pushed (%rdi) at the
 * lowest address; FBT_JUMP_RESTORE undoes it, the flags last.
 */
#define FBT_JUMP_SAVE \
	"	pushfq\n" "	cli\n" "	pushq %rax\n" "	pushq %r11\n" "	pushq %r10\n" \
	"	pushq %r9\n" "	pushq %r8\n" "	pushq %rcx\n" "	pushq %rdx\n" "	pushq %rsi\n" \
	"	pushq %rdi\n"
#define FBT_JUMP_RESTORE \
	"	popq %rdi\n" "	popq %rsi\n" "	popq %rdx\n" "	popq %rcx\n" "	popq %r8\n" \
	"	popq %r9\n" "	popq %r10\n" "	popq %r11\n" "	popq %rax\n" "	popfq\n"

#endif
