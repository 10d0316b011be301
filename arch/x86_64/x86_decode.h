/*
 * x86_decode.h - an x86-64 instruction-length decoder.
 *
 * Enough of the instruction set to walk the code gcc emits for the kernel
 * (general-purpose instructions, system instructions of inline asm, x87 forms)
 * one instruction at a time: the length of each instruction, where its
 * RIP-relative displacement sits (to copy it elsewhere), and whether it
 * transfers control.  Anything it does not know (VEX/EVEX, 3DNow!,
 * opcodes invalid in 64-bit mode) is refused rather than guessed: fbt gives a
 * function it cannot decode no probes.  Pure; any context.
 */
#ifndef SONDE_X86_DECODE_H
#define SONDE_X86_DECODE_H

#include <stddef.h>
#include <stdint.h>

enum x86_kind {
	X86_OTHER = 0,               /* falls through to the next instruction */
	X86_RET,                     /* ret, rep ret (C3, F3 C3) */
	X86_RET_IMM,                 /* ret imm16 (C2) */
	X86_JMP,                     /* jmp rel8/rel32 */
	X86_JMP_IND,                 /* jmp r/m */
	X86_JCC,                     /* conditional branch, jrcxz, loop */
	X86_CALL,                    /* call rel32 */
	X86_CALL_IND,                /* call r/m */
	X86_INT3,                    /* CC */
	X86_SYSTEM,                  /* iret, hlt, int n, sysret...: never probe across */
};

struct x86_insn {
	uint8_t xi_len;              /* bytes, 1..15 */
	uint8_t xi_opc;              /* primary opcode byte (after prefixes, REX, 0F) */
	uint8_t xi_map;              /* 0: one-byte map, 1: 0F, 2: 0F 38, 3: 0F 3A */
	int8_t xi_riprel;            /* offset of a RIP-relative disp32, or -1 */
	int8_t xi_rel;               /* offset of a branch displacement, or -1 */
	uint8_t xi_relsize;          /* its size (1 or 4) */
	enum x86_kind xi_kind;
};

/*
 * x86_decode: decode the instruction at p (at most avail bytes readable).
 * Returns its length and fills *xi, or -1 if the bytes are not an
 * instruction this decoder knows or run past avail.
 */
int x86_decode(const uint8_t *p, size_t avail, struct x86_insn *xi);

/*
 * x86_relocate: the n-byte instruction p, decoded as *xi and found at
 * address from, rewritten to run at address slot, followed by `jmp` back
 * to from + n: n + 5 bytes into buf.  A RIP-relative operand keeps its
 * target.  false if a displacement does not fit in 32 bits.  Pure code (fbt's
 * out-of-line copies at enable time, the pid provider's in its trap).
 */
bool x86_relocate(const uint8_t *p, int n, const struct x86_insn *xi, uint64_t from,
                  uint64_t slot, uint8_t *buf);

#endif
