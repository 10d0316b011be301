/*
 * x86_decode.c - instruction lengths for x86-64 (see x86_decode.h).
 *
 * An instruction is, in order:
 *
 *   [legacy prefixes] [REX] opcode (1-3 bytes) [ModRM [SIB] [disp]] [imm]
 *
 * The opcode tables below say, per opcode byte, whether a ModRM byte follows
 * and how big the immediate is.  ModRM decides the addressing bytes:
 * mod 00 rm 101 is RIP+disp32; rm 100 (mod != 11) adds a SIB byte, whose
 * base 101 with mod 00 means disp32 without base; mod 01 adds disp8, mod 10
 * disp32.  Operand size (66 prefix, REX.W) changes only the "z" and "v"
 * immediates.  The 67 prefix (32-bit addresses) keeps the same ModRM layout
 * in 64-bit mode and shrinks the moffs of A0-A3 to 4 bytes.
 *
 * Tests: self-tests x86_decode_vectors, x86_decode_walks_a_function,
 *        fbt_mechanism_each_kind; tests/d/pid
 */
#include <stdbool.h>
#include <string.h>
#include "arch/x86_64/x86_decode.h"

/* Per-opcode flags. */
#define M     0x01       /* ModRM follows */
#define I8    0x02       /* imm8 */
#define I16   0x04       /* imm16 */
#define IZ    0x08       /* imm16 or imm32 (operand size) */
#define IV    0x10       /* imm16, imm32 or imm64 (B8-BF) */
#define MOFFS 0x20       /* address-size moffs (A0-A3) */
#define GRP3  0x40       /* F6/F7: immediate only when ModRM.reg is 0 or 1 */
#define BAD   0x80       /* invalid in 64-bit mode, VEX/EVEX, or a prefix byte */

static const uint8_t map1[256] = {
	/* 00-3F: eight ALU groups of op r/m,r / r,r/m / al,imm8 / eax,immz */
	[0x00 ... 0x03] = M, [0x04] = I8, [0x05] = IZ, [0x06 ... 0x07] = BAD,
	[0x08 ... 0x0b] = M, [0x0c] = I8, [0x0d] = IZ, [0x0e] = BAD, [0x0f] = BAD,
	[0x10 ... 0x13] = M, [0x14] = I8, [0x15] = IZ, [0x16 ... 0x17] = BAD,
	[0x18 ... 0x1b] = M, [0x1c] = I8, [0x1d] = IZ, [0x1e ... 0x1f] = BAD,
	[0x20 ... 0x23] = M, [0x24] = I8, [0x25] = IZ, [0x26 ... 0x27] = BAD,
	[0x28 ... 0x2b] = M, [0x2c] = I8, [0x2d] = IZ, [0x2e ... 0x2f] = BAD,
	[0x30 ... 0x33] = M, [0x34] = I8, [0x35] = IZ, [0x36 ... 0x37] = BAD,
	[0x38 ... 0x3b] = M, [0x3c] = I8, [0x3d] = IZ, [0x3e ... 0x3f] = BAD,
	[0x40 ... 0x4f] = BAD,                          /* REX, handled before */
	[0x50 ... 0x5f] = 0,                            /* push/pop reg */
	[0x60 ... 0x62] = BAD, [0x63] = M,              /* movsxd */
	[0x64 ... 0x67] = BAD,                          /* prefixes */
	[0x68] = IZ, [0x69] = M | IZ, [0x6a] = I8, [0x6b] = M | I8,
	[0x6c ... 0x6f] = 0,                            /* ins/outs */
	[0x70 ... 0x7f] = I8,                           /* jcc rel8 */
	[0x80] = M | I8, [0x81] = M | IZ, [0x82] = BAD, [0x83] = M | I8,
	[0x84 ... 0x8f] = M,
	[0x90 ... 0x99] = 0, [0x9a] = BAD, [0x9b ... 0x9f] = 0,
	[0xa0 ... 0xa3] = MOFFS, [0xa4 ... 0xa7] = 0, [0xa8] = I8, [0xa9] = IZ,
	[0xaa ... 0xaf] = 0,
	[0xb0 ... 0xb7] = I8, [0xb8 ... 0xbf] = IV,
	[0xc0 ... 0xc1] = M | I8, [0xc2] = I16, [0xc3] = 0, [0xc4 ... 0xc5] = BAD,
	[0xc6] = M | I8, [0xc7] = M | IZ, [0xc8] = I16 | I8, [0xc9] = 0,
	[0xca] = I16, [0xcb ... 0xcc] = 0, [0xcd] = I8, [0xce] = BAD, [0xcf] = 0,
	[0xd0 ... 0xd3] = M, [0xd4 ... 0xd6] = BAD, [0xd7] = 0, [0xd8 ... 0xdf] = M,
	[0xe0 ... 0xe7] = I8, [0xe8 ... 0xe9] = IZ, [0xea] = BAD, [0xeb] = I8,
	[0xec ... 0xef] = 0,
	[0xf0] = BAD, [0xf1] = 0, [0xf2 ... 0xf3] = BAD, [0xf4 ... 0xf5] = 0,
	[0xf6] = M | GRP3, [0xf7] = M | GRP3, [0xf8 ... 0xfd] = 0, [0xfe ... 0xff] = M,
};

static const uint8_t map0f[256] = {
	[0x00 ... 0x03] = M, [0x04] = BAD, [0x05 ... 0x09] = 0, [0x0a] = BAD, [0x0b] = 0,
	[0x0c] = BAD, [0x0d] = M, [0x0e] = 0, [0x0f] = BAD,
	[0x10 ... 0x23] = M, [0x24 ... 0x27] = BAD, [0x28 ... 0x2f] = M,
	[0x30 ... 0x35] = 0, [0x36] = BAD, [0x37] = 0, [0x38 ... 0x3f] = BAD,
	[0x40 ... 0x6f] = M, [0x70 ... 0x73] = M | I8, [0x74 ... 0x76] = M, [0x77] = 0,
	[0x78 ... 0x7f] = M, [0x80 ... 0x8f] = IZ, [0x90 ... 0x9f] = M,
	[0xa0 ... 0xa2] = 0, [0xa3] = M, [0xa4] = M | I8, [0xa5] = M, [0xa6 ... 0xa7] = BAD,
	[0xa8 ... 0xaa] = 0, [0xab] = M, [0xac] = M | I8, [0xad ... 0xb9] = M,
	[0xba] = M | I8, [0xbb ... 0xc1] = M, [0xc2] = M | I8, [0xc3] = M,
	[0xc4 ... 0xc6] = M | I8, [0xc7] = M, [0xc8 ... 0xcf] = 0, [0xd0 ... 0xff] = M,
};

struct decode_state {
	const uint8_t *p;
	size_t avail, n;             /* bytes readable, bytes consumed */
	bool opsize16, addr32, rexw, rep;
	uint8_t opc;
};

static int next_byte(struct decode_state *d)
{
	if (d->n >= d->avail || d->n >= 15)
		return -1;
	return d->p[d->n++];
}

static bool is_legacy_prefix(int b)
{
	return b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 || b == 0xf3 ||
	       b == 0x2e || b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65;
}

/* prefixes: consume legacy prefixes and REX; return the first opcode byte. */
static int prefixes(struct decode_state *d)
{
	int b;

	while ((b = next_byte(d)) >= 0 && is_legacy_prefix(b)) {
		d->opsize16 |= b == 0x66;
		d->addr32 |= b == 0x67;
		d->rep |= b == 0xf3;
	}
	if (b >= 0x40 && b <= 0x4f) {               /* REX must come last */
		d->rexw = (b & 8) != 0;
		b = next_byte(d);
	}
	return b;
}

/* modrm: consume ModRM, SIB and displacement; note a RIP-relative disp32. */
static int modrm(struct decode_state *d, struct x86_insn *xi, int *reg)
{
	int m = next_byte(d);

	if (m < 0)
		return -1;
	int mod = m >> 6, rm = m & 7, disp = 0;
	*reg = (m >> 3) & 7;
	if (mod == 3)
		return 0;
	if (rm == 4) {
		int sib = next_byte(d);
		if (sib < 0)
			return -1;
		if (mod == 0 && (sib & 7) == 5)
			disp = 4;
	} else if (mod == 0 && rm == 5) {
		xi->xi_riprel = (int8_t)d->n;
		disp = 4;
	}
	if (mod == 1)
		disp = 1;
	else if (mod == 2)
		disp = 4;
	d->n += disp;
	return d->n <= d->avail ? 0 : -1;
}

static int imm_size(const struct decode_state *d, uint8_t f, int reg)
{
	int n = 0;

	if (f & I8)
		n += 1;
	if (f & I16)
		n += 2;
	if (f & IZ)
		n += d->opsize16 ? 2 : 4;
	if (f & IV)
		n += d->rexw ? 8 : d->opsize16 ? 2 : 4;
	if (f & MOFFS)
		n += d->addr32 ? 4 : 8;
	if ((f & GRP3) && reg <= 1)             /* test r/m, imm */
		n += d->opc == 0xf6 ? 1 : d->opsize16 ? 2 : 4;
	return n;
}

/* classify: the control-transfer kind of a decoded instruction. */
static void classify(struct x86_insn *xi, int reg, size_t immoff, int immlen)
{
	uint8_t o = xi->xi_opc;

	if (xi->xi_map == 1) {
		if (o >= 0x80 && o <= 0x8f) {
			xi->xi_kind = X86_JCC;
			xi->xi_rel = (int8_t)immoff;
			xi->xi_relsize = (uint8_t)immlen;
		} else if (o == 0x05 || o == 0x07 || o == 0x0b || o == 0x34 || o == 0x35) {
			xi->xi_kind = X86_SYSTEM;
		}
		return;
	}
	if (xi->xi_map != 0)
		return;
	if ((o >= 0x70 && o <= 0x7f) || (o >= 0xe0 && o <= 0xe3) || o == 0xeb ||
	    o == 0xe9 || o == 0xe8) {
		xi->xi_kind = o == 0xe8 ? X86_CALL : (o == 0xeb || o == 0xe9) ? X86_JMP : X86_JCC;
		xi->xi_rel = (int8_t)immoff;
		xi->xi_relsize = (uint8_t)immlen;
	} else if (o == 0xc3) {
		xi->xi_kind = X86_RET;
	} else if (o == 0xc2) {
		xi->xi_kind = X86_RET_IMM;
	} else if (o == 0xcc) {
		xi->xi_kind = X86_INT3;
	} else if (o == 0xff && (reg == 2 || reg == 3)) {
		xi->xi_kind = X86_CALL_IND;
	} else if (o == 0xff && (reg == 4 || reg == 5)) {
		xi->xi_kind = X86_JMP_IND;
	} else if (o == 0xcf || o == 0xf4 || o == 0xcd || o == 0xf1 || o == 0xca || o == 0xcb) {
		xi->xi_kind = X86_SYSTEM;
	}
}

int x86_decode(const uint8_t *p, size_t avail, struct x86_insn *xi)
{
	struct decode_state d = { .p = p, .avail = avail };
	int b = prefixes(&d), reg = 0;
	uint8_t f;

	*xi = (struct x86_insn){ .xi_riprel = -1, .xi_rel = -1 };
	if (b < 0)
		return -1;
	if (b == 0x0f) {
		if ((b = next_byte(&d)) < 0)
			return -1;
		if (b == 0x38 || b == 0x3a) {
			xi->xi_map = b == 0x38 ? 2 : 3;
			if ((b = next_byte(&d)) < 0)
				return -1;
			f = xi->xi_map == 2 ? M : M | I8;
		} else {
			xi->xi_map = 1;
			f = map0f[b];
		}
	} else {
		f = map1[b];
	}
	if (f & BAD)
		return -1;
	xi->xi_opc = d.opc = (uint8_t)b;
	if ((f & M) && modrm(&d, xi, &reg) < 0)
		return -1;
	int immlen = imm_size(&d, f, reg);
	size_t immoff = d.n;
	d.n += (size_t)immlen;
	if (d.n > d.avail || d.n > 15)
		return -1;
	xi->xi_len = (uint8_t)d.n;
	if (d.rep && b == 0xc3 && xi->xi_map == 0)
		xi->xi_kind = X86_RET;
	classify(xi, reg, immoff, immlen);
	return (int)d.n;
}

/* put_rel32: at dst, the 32-bit displacement from next_ip to target, if it fits. */
static bool put_rel32(uint8_t *dst, uint64_t target, uint64_t next_ip)
{
	int64_t rel = (int64_t)(target - next_ip);
	int32_t r32 = (int32_t)rel;

	if (rel != r32)
		return false;
	memcpy(dst, &r32, 4);
	return true;
}

bool x86_relocate(const uint8_t *p, int n, const struct x86_insn *xi, uint64_t from,
                  uint64_t slot, uint8_t *buf)
{
	memcpy(buf, p, (size_t)n);
	if (xi->xi_riprel >= 0) {                   /* the same target from the copy */
		int32_t d;
		memcpy(&d, p + xi->xi_riprel, 4);
		uint64_t target = from + (uint64_t)n + (uint64_t)(int64_t)d;
		if (!put_rel32(buf + xi->xi_riprel, target, slot + (uint64_t)n))
			return false;
	}
	buf[n] = 0xe9;                              /* jmp rel32 back */
	return put_rel32(buf + n + 1, from + (uint64_t)n, slot + (uint64_t)n + 5);
}
