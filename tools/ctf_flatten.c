/*
 * tools/ctf_flatten.c: the kernel's type section, as the kernel reads it.
 *
 *   ctf_flatten CTF-SECTION OUT.ctf
 *
 * gcc's -gctf gives every object a .ctf section; the final link
 * (ld --ctf-variables, so that functions and variables keep their types)
 * merges them into one CTF archive: a parent dict holding every type that
 * has one definition in the kernel, and child dicts for the few per-file
 * types whose name two files define differently (a local "struct out").
 * ld compresses each dict's body with zlib.
 *
 * The kernel's reader (kernel/ctf.c) is small on purpose: it reads one
 * uncompressed CTF v3 dict and nothing else.  This host tool produces that
 * dict from the section's bytes (objcopy --dump-section .ctf=FILE): it finds
 * the archive member named ".ctf" (the parent), inflates its body and
 * writes header and body with the compression flag cleared.  The children
 * are left out, and counted on the build log: their types are private to
 * one file each and share a name with another file's, so no D program could
 * name them unambiguously anyway.  A section that is a bare dict (no
 * archive: no conflicts at all) is taken as it is.
 *
 * The archive layout (uint64s, little-endian as libctf writes them; the
 * other order is taken too, told by the magic number): magic, model,
 * ndicts, names (offset of the name strings), ctfs (offset of the dicts);
 * then ndicts pairs {name offset, dict offset}; each dict starts with its
 * size.
 *
 * Byte order: ld writes the dicts in the order of the machine it runs on
 * (libctf's native order), not the target's, so the cross-built sparc64
 * kernel's dict comes out little-endian on an x86_64 build machine and
 * would come out big-endian on a big-endian one.  The image's dict is
 * always little-endian (kernel/ctf.h): a big-endian one is rewritten
 * (tools/ctf_order.c), so what the kernel reads depends on neither the
 * target nor the build machine.
 *
 * Exit status 0 on success, 1 on any error (message on stderr).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "tools/ctf_order.h"

#define ARC_MAGIC	0x8b47f2a4d7623eebull
#define HDR_SIZE	52	/* the v3 header: preamble + 12 words */
#define HDR_STROFF	(4 + 4 * 10)
#define HDR_STRLEN	(4 + 4 * 11)
#define F_COMPRESS	0x1

static unsigned char *
file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return (NULL);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc(n > 0 ? (size_t)n : 1);
	if (b == NULL || fread(b, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return (NULL);
	}
	fclose(f);
	*len = (size_t)n;
	return (b);
}

/* The archive's uint64 at p, in order (CTF_ORDER_*). */
static uint64_t
u64(const unsigned char *p, int order)
{
	uint64_t a = ctf_order_word(p, order), b = ctf_order_word(p + 4, order);
	return (order == CTF_ORDER_BIG ? a << 32 | b : b << 32 | a);
}

/* The archive's byte order, told by its magic; CTF_ORDER_NONE if none. */
static int
arc_order(const unsigned char *b, size_t len)
{
	if (len >= 8 && u64(b, CTF_ORDER_LITTLE) == ARC_MAGIC)
		return (CTF_ORDER_LITTLE);
	if (len >= 8 && u64(b, CTF_ORDER_BIG) == ARC_MAGIC)
		return (CTF_ORDER_BIG);
	return (CTF_ORDER_NONE);
}

/* The archive member named ".ctf": its bytes and length, or NULL. */
static const unsigned char *
arc_parent(const unsigned char *b, size_t len, int order, size_t *dlen,
    int *nchild)
{
	if (len < 40)
		return (NULL);
	uint64_t n = u64(b + 16, order), names = u64(b + 24, order);
	uint64_t ctfs = u64(b + 32, order);
	if (n > (len - 40) / 16 || names >= len || ctfs >= len)
		return (NULL);
	const unsigned char *found = NULL;
	*nchild = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t no = u64(b + 40 + 16 * i, order);
		uint64_t co = u64(b + 48 + 16 * i, order);
		if (names + no >= len || ctfs + co + 8 > len)
			return (NULL);
		uint64_t sz = u64(b + ctfs + co, order);
		if (sz > len - ctfs - co - 8)
			return (NULL);
		if (strncmp((const char *)b + names + no, ".ctf",
		    len - names - no) == 0) {
			found = b + ctfs + co + 8;
			*dlen = sz;
		} else {
			(*nchild)++;
		}
	}
	return (found);
}

/* Header + inflated body of a dict, in its own byte order; sets *outlen. */
static unsigned char *
dict_inflate(const unsigned char *d, size_t dlen, size_t *outlen)
{
	int order = ctf_order_detect(d, dlen);
	if (dlen < HDR_SIZE || order == CTF_ORDER_NONE)
		return (NULL);
	if (!(d[3] & F_COMPRESS)) {
		unsigned char *o = malloc(dlen);
		memcpy(o, d, dlen);
		*outlen = dlen;
		return (o);
	}
	uLongf body = (uLongf)ctf_order_word(d + HDR_STROFF, order) +
	    ctf_order_word(d + HDR_STRLEN, order);
	unsigned char *o = malloc(HDR_SIZE + body);
	if (o == NULL)
		return (NULL);
	memcpy(o, d, HDR_SIZE);
	o[3] &= (unsigned char)~F_COMPRESS;
	uLongf got = body;
	if (uncompress(o + HDR_SIZE, &got, d + HDR_SIZE,
	    (uLong)(dlen - HDR_SIZE)) != Z_OK || got != body) {
		free(o);
		return (NULL);
	}
	*outlen = HDR_SIZE + body;
	return (o);
}

int
main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: ctf_flatten CTF-SECTION OUT.ctf\n");
		return (1);
	}
	size_t len, dlen = 0, olen = 0;
	int nchild = 0;
	unsigned char *b = file_read(argv[1], &len);
	if (b == NULL) {
		perror(argv[1]);
		return (1);
	}
	const unsigned char *d = b;
	dlen = len;
	int aorder = arc_order(b, len);
	if (aorder != CTF_ORDER_NONE)
		d = arc_parent(b, len, aorder, &dlen, &nchild);
	unsigned char *o = d == NULL ? NULL : dict_inflate(d, dlen, &olen);
	if (o == NULL) {
		fprintf(stderr, "ctf_flatten: %s: not a CTF section ld "
		    "wrote\n", argv[1]);
		return (1);
	}
	int order = ctf_order_detect(o, olen);
	const char *why = NULL;
	if (ctf_order_make_le(o, olen, &why) != 0) {
		fprintf(stderr, "ctf_flatten: %s: %s\n", argv[1], why);
		return (1);
	}
	FILE *f = fopen(argv[2], "wb");
	if (f == NULL || fwrite(o, 1, olen, f) != olen || fclose(f) != 0) {
		perror(argv[2]);
		return (1);
	}
	printf("  CTF     %s: %zu bytes (%zu in the ELF file), %d per-file "
	    "dict(s) left out%s\n", argv[2], olen, len, nchild,
	    order == CTF_ORDER_BIG ? ", rewritten little-endian" : "");
	free(o);
	free(b);
	return (0);
}
