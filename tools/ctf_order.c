/*
 * tools/ctf_order.c: a CTF v3 dict rewritten little-endian (see
 * tools/ctf_order.h for why and the promises).
 *
 * A dict's fields, for the purpose of its byte order (the layout is
 * kernel/ctf.h's):
 *   header   a 16-bit magic, two bytes (version, flags), twelve 32-bit
 *            words (parent label and name, CU name, section offsets, the
 *            string section's length)
 *   labels, objects, functions, the two index sections, variables:
 *            arrays of 32-bit words, between the label offset and the type
 *            offset
 *   types    records of 32-bit words, except a slice's {base, offset,
 *            bits}: a word, then two 16-bit halves
 *   strings  bytes
 * So the rewrite swaps the header, every word before the type section,
 * then walks the type records (whose lengths depend on their kind, vlen
 * and size, read in the dict's own order before the record is swapped).
 * The record lengths are computed as kernel/ctf.c computes them, so the
 * two agree on where each record starts.
 *
 * Bad input is refused, never read past: every section and record is
 * checked against the dict's length before it is touched.
 *
 * Tests: tests/unit/kernel_ctf_order_test.c (run little- and big-endian)
 */
#include "tools/ctf_order.h"

#define CTF_MAGIC_HI	0xdf
#define CTF_MAGIC_LO	0xf2
#define CTF_HDRLEN	52		/* preamble + 12 words */
#define CTF_F_COMPRESS	0x1
#define CTF_LSIZE	0xffffffffu	/* a large type's size sentinel */
#define CTF_LSTRUCT	536870912u	/* members are large from this size */

/* header word i (0 = parent label .. 11 = string length) */
enum { H_PARLABEL, H_PARNAME, H_CUNAME, H_LBL, H_OBJT, H_FUNC, H_OBJTIDX,
       H_FUNCIDX, H_VAR, H_TYPE, H_STR, H_STRLEN, H_N };

/* The kinds (kernel/ctf.h's CTF_KIND_*), as far as lengths need them. */
enum { K_UNKNOWN, K_INT, K_FLOAT, K_PTR, K_ARRAY, K_FUNC, K_STRUCT, K_UNION,
       K_ENUM, K_FORWARD, K_TYPEDEF, K_VOLATILE, K_CONST, K_RESTRICT,
       K_SLICE };

int
ctf_order_detect(const uint8_t *d, size_t len)
{
	if (len < 2)
		return (CTF_ORDER_NONE);
	if (d[0] == CTF_MAGIC_LO && d[1] == CTF_MAGIC_HI)
		return (CTF_ORDER_LITTLE);
	if (d[0] == CTF_MAGIC_HI && d[1] == CTF_MAGIC_LO)
		return (CTF_ORDER_BIG);
	return (CTF_ORDER_NONE);
}

uint32_t
ctf_order_word(const uint8_t *p, int order)
{
	if (order == CTF_ORDER_BIG)
		return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		    (uint32_t)p[2] << 8 | (uint32_t)p[3]);
	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24);
}

static void
swap16(uint8_t *p)
{
	uint8_t t = p[0];
	p[0] = p[1];
	p[1] = t;
}

static void
swap32(uint8_t *p)
{
	uint8_t t = p[0];
	p[0] = p[3];
	p[3] = t;
	t = p[1];
	p[1] = p[2];
	p[2] = t;
}

static void
words_swap(uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 4 <= n; i += 4)
		swap32(p + i);
}

static int
refuse(const char **why, const char *msg)
{
	*why = msg;
	return (-1);
}

/* A record's refusal: rec_swap's length 0. */
static size_t
rec_refuse(const char **why, const char *msg)
{
	*why = msg;
	return (0);
}

static int
kind_sized(uint32_t kind)
{
	return (kind == K_INT || kind == K_FLOAT || kind == K_STRUCT ||
	    kind == K_UNION || kind == K_ENUM || kind == K_SLICE);
}

/* Bytes after a record's header (kernel/ctf.c's rec_varlen); -1: bad kind. */
static int64_t
rec_varlen(uint32_t kind, uint64_t vlen, uint64_t size)
{
	switch (kind) {
	case K_INT: case K_FLOAT:
		return (4);
	case K_ARRAY:
		return (12);
	case K_SLICE:
		return (8);
	case K_FUNC:
		return ((int64_t)((vlen + (vlen & 1)) * 4));
	case K_STRUCT: case K_UNION:
		return ((int64_t)(vlen * (size >= CTF_LSTRUCT ? 16 : 12)));
	case K_ENUM:
		return ((int64_t)(vlen * 8));
	case K_UNKNOWN: case K_PTR: case K_FORWARD: case K_TYPEDEF:
	case K_VOLATILE: case K_CONST: case K_RESTRICT:
		return (0);
	default:
		return (-1);
	}
}

/* One big-endian type record at r (room bytes left); its length, or 0. */
static size_t
rec_swap(uint8_t *r, size_t room, const char **why)
{
	if (room < 12)
		return (rec_refuse(why, "a type record is cut short"));
	uint32_t info = ctf_order_word(r + 4, CTF_ORDER_BIG);
	uint32_t kind = info >> 26;
	uint64_t size = ctf_order_word(r + 8, CTF_ORDER_BIG);
	size_t hl = 12;
	if (kind_sized(kind) && size == CTF_LSIZE) {
		hl = 20;
		if (room < hl)
			return (rec_refuse(why, "a type record is cut short"));
		size = (uint64_t)ctf_order_word(r + 12, CTF_ORDER_BIG) << 32 |
		    ctf_order_word(r + 16, CTF_ORDER_BIG);
	}
	int64_t vl = rec_varlen(kind, info & 0xffffff, size);
	if (vl < 0)
		return (rec_refuse(why, "a type of an unknown kind"));
	if ((uint64_t)vl > room - hl)
		return (rec_refuse(why, "a type's members run past the "
		    "type section"));
	words_swap(r, hl);
	if (kind == K_SLICE) {
		swap32(r + hl);		/* base type */
		swap16(r + hl + 4);	/* bit offset */
		swap16(r + hl + 6);	/* bits */
	} else {
		words_swap(r + hl, (size_t)vl);
	}
	return (hl + (size_t)vl);
}

int
ctf_order_make_le(uint8_t *d, size_t len, const char **why)
{
	int order = ctf_order_detect(d, len);
	if (order == CTF_ORDER_NONE || len < CTF_HDRLEN)
		return (refuse(why, "not a CTF dict"));
	if (order == CTF_ORDER_LITTLE)
		return (0);
	if (d[3] & CTF_F_COMPRESS)
		return (refuse(why, "compressed (inflate it first)"));
	uint32_t h[H_N];
	for (int i = 0; i < H_N; i++)
		h[i] = ctf_order_word(d + 4 + 4 * i, CTF_ORDER_BIG);
	for (int i = H_LBL; i < H_STR; i++)
		if (h[i] > h[i + 1])
			return (refuse(why, "sections out of order"));
	size_t body = len - CTF_HDRLEN;
	if (h[H_STR] > body || h[H_STRLEN] > body - h[H_STR])
		return (refuse(why, "sections past the end of the dict"));
	if (h[H_LBL] % 4 != 0 || h[H_TYPE] % 4 != 0 || h[H_STR] % 4 != 0)
		return (refuse(why, "a section not made of words"));
	swap16(d);
	words_swap(d + 4, 4 * H_N);
	uint8_t *s = d + CTF_HDRLEN;
	words_swap(s + h[H_LBL], h[H_TYPE] - h[H_LBL]);
	for (size_t off = h[H_TYPE]; off < h[H_STR];) {
		size_t n = rec_swap(s + off, h[H_STR] - off, why);
		if (n == 0)
			return (-1);
		off += n;
	}
	return (0);
}
