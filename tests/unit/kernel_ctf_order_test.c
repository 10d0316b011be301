/*
 * kernel_ctf_order_test.c - a CTF dict made little-endian (tools/ctf_order.c,
 * what tools/ctf_flatten.c does to a dict ld wrote big-endian), read by the
 * kernel's reader (kernel/ctf.c).
 *
 * ld writes the kernel's merged CTF in the byte order of the machine it runs
 * on; the image's dict is little-endian on every target.  The same dict is
 * built here twice, once in each byte order, with every kind of field the
 * format has: header words, the words of the label, object and variable
 * sections, type records of every length rule (a large struct with a 20-byte
 * header and 16-byte members, a function with an odd argument count and its
 * padding word, an enum with a negative value), and a slice, whose offset and
 * width are 16 bits each (swapping its second word as one 32-bit word would
 * exchange them).  The checks: the big-endian one rewritten is byte for byte
 * the little-endian one; a little-endian one is left alone; the result opens
 * and reads right; truncated, compressed and unknown-kind dicts are refused.
 *
 * Plain C (no cmocka), like dtc_byteorder_test.c, so that `make
 * kunit-be-check` also runs it big-endian under qemu-sparc64: the rewrite
 * reads and writes bytes, so its result must not depend on the machine.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/ctf.h"
#include "tools/ctf_order.h"

static int failures;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok" : "FAIL", what);
	if (!ok)
		failures++;
}

/* ---- one dict, built in either byte order ---- */

struct builder {
	int big;
	uint8_t buf[2048];
	uint8_t sec[1024];		/* labels, objects, vars, then types */
	uint32_t seclen;
	uint8_t str[512];
	uint32_t strlen;
};

static void put16(const struct builder *b, uint8_t *p, uint16_t v)
{
	p[b->big ? 0 : 1] = (uint8_t)(v >> 8);
	p[b->big ? 1 : 0] = (uint8_t)v;
}

static void put32(const struct builder *b, uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[b->big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static void w32(struct builder *b, uint32_t v)
{
	put32(b, b->sec + b->seclen, v);
	b->seclen += 4;
}

static uint32_t name(struct builder *b, const char *s)
{
	uint32_t off = b->strlen;
	memcpy(b->str + off, s, strlen(s) + 1);
	b->strlen += (uint32_t)strlen(s) + 1;
	return off;
}

static void rec(struct builder *b, const char *n, uint32_t kind, uint32_t vlen, uint32_t sizetype)
{
	w32(b, n != NULL ? name(b, n) : 0);
	w32(b, kind << 26 | 1u << 25 | vlen);
	w32(b, sizetype);
}

/*
 * Types: 1 int; 2 struct s { int a; struct s *p; unsigned f:3 at bit 69 (type 9,
 * a slice) }; 3 struct s *; 4 typedef s_t; 5 int (char *, int, s_t) as a
 * function (3 arguments and a padding word); 6 enum e { NEG = -2, BIG =
 * 0x12345678 }; 7 char; 8 char [16]; 9 a slice of int at bit 5, 3 bits
 * wide; 10 struct huge (size 0x1_0000_0010, so a 20-byte header and 16-byte
 * members) { int last at bit 0x8_0000_0040 }; 11 char *.  Variables: fn (5),
 * head (3); one label, two object words.
 */
static size_t dict_build(struct builder *b, int big)
{
	memset(b, 0, sizeof(*b));
	b->big = big;
	name(b, "");
	uint32_t lbl = b->seclen;
	w32(b, name(b, "label")); w32(b, 11);           /* labels */
	uint32_t objt = b->seclen;
	w32(b, 1); w32(b, 3);                           /* objects */
	uint32_t var = b->seclen;
	w32(b, name(b, "fn")); w32(b, 5);               /* variables, by name */
	w32(b, name(b, "head")); w32(b, 3);
	uint32_t type = b->seclen;
	rec(b, "int", CTF_KIND_INT, 0, 4);
	w32(b, CTF_ENC_SIGNED << 24 | 32);
	rec(b, "s", CTF_KIND_STRUCT, 3, 24);
	w32(b, name(b, "a")); w32(b, 0); w32(b, 1);
	w32(b, name(b, "p")); w32(b, 64); w32(b, 3);
	w32(b, name(b, "f")); w32(b, 69); w32(b, 9);
	rec(b, NULL, CTF_KIND_PTR, 0, 2);
	rec(b, "s_t", CTF_KIND_TYPEDEF, 0, 2);
	rec(b, NULL, CTF_KIND_FUNC, 3, 1);
	w32(b, 11); w32(b, 1); w32(b, 4); w32(b, 0);    /* (char *, int, s_t), pad */
	rec(b, "e", CTF_KIND_ENUM, 2, 4);
	w32(b, name(b, "NEG")); w32(b, (uint32_t)-2);
	w32(b, name(b, "BIG")); w32(b, 0x12345678);
	rec(b, "char", CTF_KIND_INT, 0, 1);
	w32(b, (CTF_ENC_SIGNED | CTF_ENC_CHAR) << 24 | 8);
	rec(b, NULL, CTF_KIND_ARRAY, 0, 0);
	w32(b, 7); w32(b, 1); w32(b, 16);
	rec(b, NULL, CTF_KIND_SLICE, 0, 4);
	w32(b, 1);
	put16(b, b->sec + b->seclen, 5);                /* offset */
	put16(b, b->sec + b->seclen + 2, 3);            /* bits */
	b->seclen += 4;
	rec(b, "huge", CTF_KIND_STRUCT, 1, 0xffffffffu);
	w32(b, 1); w32(b, 0x10);                        /* size 0x1_0000_0010 */
	w32(b, name(b, "last")); w32(b, 8); w32(b, 1); w32(b, 0x40);
	rec(b, NULL, CTF_KIND_PTR, 0, 7);

	uint8_t *h = b->buf;
	put16(b, h, 0xdff2);
	h[2] = 4;                                       /* CTF v3 */
	h[3] = 0;
	uint32_t words[12] = { 0, 0, 0, lbl, objt, var, var, var, var, type, b->seclen,
	                       b->strlen };
	for (int i = 0; i < 12; i++)
		put32(b, h + 4 + 4 * i, words[i]);
	memcpy(h + 52, b->sec, b->seclen);
	memcpy(h + 52 + b->seclen, b->str, b->strlen);
	return 52 + b->seclen + b->strlen;
}

/* ---- the checks ---- */

static void test_rewrite(void)
{
	static struct builder le, be;
	size_t len = dict_build(&le, 0), belen = dict_build(&be, 1);
	const char *why = NULL;

	check(ctf_order_detect(le.buf, len) == CTF_ORDER_LITTLE, "a little-endian dict is told so");
	check(ctf_order_detect(be.buf, belen) == CTF_ORDER_BIG, "a big-endian dict is told so");
	check(belen == len && memcmp(le.buf, be.buf, len) != 0, "the two orders differ as built");
	int rc = ctf_order_make_le(be.buf, belen, &why);
	if (rc != 0)
		printf("# refused: %s\n", why);
	check(rc == 0, "the big-endian dict is rewritten");
	check(memcmp(le.buf, be.buf, len) == 0, "rewritten, it is the little-endian dict byte for byte");
	static uint8_t copy[sizeof(le.buf)];
	memcpy(copy, le.buf, len);
	check(ctf_order_make_le(le.buf, len, &why) == 0 && memcmp(copy, le.buf, len) == 0,
	      "a little-endian dict is left as it is");
}

static void test_read(void)
{
	static struct builder be;
	size_t len = dict_build(&be, 1);
	const char *why = NULL, *mn = NULL;
	ctf_dict_t d;
	ctf_typeinfo_t ti;
	uint32_t mt = 0;
	uint64_t off = 0;
	int32_t v = 0;
	char buf[128];

	check(ctf_open(&d, be.buf, len, malloc) != 0 && strstr(d.cd_err, "big-endian") != NULL,
	      "the kernel's reader refuses it big-endian, by name");
	check(ctf_order_make_le(be.buf, len, &why) == 0, "rewritten for reading");
	int rc = ctf_open(&d, be.buf, len, malloc);
	if (rc != 0)
		printf("# ctf_open: %s\n", d.cd_err);
	check(rc == 0 && d.cd_ntypes == 11, "the kernel's reader opens it: 11 types");
	if (rc != 0)
		return;
	check(ctf_var(&d, "head") == 3 && ctf_var(&d, "fn") == 5, "variables by name");
	check(ctf_type(&d, 9, &ti) == 0 && ti.ti_bitoff == 5 && ti.ti_bits == 3,
	      "a slice's 16-bit offset and width");
	check(ctf_member(&d, 2, 2, &mn, &mt, &off) == 0 && strcmp(mn, "f") == 0 && mt == 9 &&
	      off == 69, "a member's name, type and bit offset");
	check(ctf_type(&d, 10, &ti) == 0 && ti.ti_size == 0x100000010ull, "a large struct's size");
	check(ctf_member(&d, 10, 0, &mn, &mt, &off) == 0 && off == 0x800000040ull,
	      "a large member's 64-bit bit offset");
	check(ctf_enumerator(&d, 6, 0, &mn, &v) == 0 && v == -2 &&
	      ctf_enumerator(&d, 6, 1, &mn, &v) == 0 && v == 0x12345678, "enumerator values");
	check(strcmp(ctf_type_name(&d, 5, buf, sizeof(buf)), "int (*)(char *, int, s_t)") == 0,
	      "a function's arguments, past the padding word");
	check(ctf_type(&d, 1, &ti) == 0 && ti.ti_bits == 32 && ti.ti_enc == CTF_ENC_SIGNED,
	      "an int's encoding");
	check(ctf_type(&d, 8, &ti) == 0 && ti.ti_nelem == 16 && ti.ti_ref == 7, "an array");
}

static void test_refused(void)
{
	static struct builder be, cut;
	size_t len = dict_build(&be, 1);
	const char *why = NULL;
	int refused = 1;

	for (size_t n = 0; n < len; n++) {              /* every shorter dict */
		memcpy(cut.buf, be.buf, n);
		if (ctf_order_make_le(cut.buf, n, &why) == 0)
			refused = 0;
	}
	check(refused, "every truncated big-endian dict is refused");
	dict_build(&be, 1);
	be.buf[3] = 1;                                  /* compressed */
	check(ctf_order_make_le(be.buf, len, &why) != 0, "a compressed dict is refused");
	dict_build(&be, 1);
	uint32_t type = 52 + 32;                        /* the first type record */
	be.buf[type + 4] = 0x7c;                        /* kind 31 */
	check(ctf_order_make_le(be.buf, len, &why) != 0 && strstr(why, "kind") != NULL,
	      "a type of an unknown kind is refused");
	dict_build(&be, 1);
	be.buf[4 + 4 * 11] = 0xff;                      /* the string length, past the end */
	check(ctf_order_make_le(be.buf, len, &why) != 0, "a section past the end is refused");
	uint8_t junk[64] = { 0x12, 0x34 };
	check(ctf_order_detect(junk, sizeof(junk)) == CTF_ORDER_NONE &&
	      ctf_order_make_le(junk, sizeof(junk), &why) != 0, "not CTF at all is refused");
}

int main(void)
{
	const uint16_t one = 1;

	printf("# %s-endian\n", *(const uint8_t *)&one ? "little" : "big");
	test_rewrite();
	test_read();
	test_refused();
	printf("# %d failed\n", failures);
	return failures != 0;
}
