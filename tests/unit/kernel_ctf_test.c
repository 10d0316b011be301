/*
 * kernel_ctf_test.c - the CTF reader (kernel/ctf.c): a small dict built here, the
 * real kernel's (build/kernel.ctf, when it has been built; the path comes
 * from the build as TEST_CTF_PATH), and corrupt copies of both.
 *
 * The promise under test: ctf_open() refuses any dict it could not read
 * safely, with a message, and whatever it accepts can be walked in full
 * (every type, member, enumerator, argument and name) without reading
 * outside the buffer; loops of typedefs end.  Mutated copies are made with
 * a fixed seed, so a failure reproduces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "kernel/ctf.h"

#ifndef TEST_CTF_PATH
#define TEST_CTF_PATH "build/kernel.ctf"
#endif

/* ---- a dict built by hand ---- */

struct builder {
	uint8_t buf[4096];
	uint32_t types, ntypes;		/* bytes of the type section */
	uint8_t tsec[2048], vsec[256], ssec[512];
	uint32_t vlen, slen;
};

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t str_add(struct builder *b, const char *s)
{
	uint32_t off = b->slen;
	memcpy(b->ssec + b->slen, s, strlen(s) + 1);
	b->slen += (uint32_t)strlen(s) + 1;
	return off;
}

static void t32(struct builder *b, uint32_t v)
{
	put32(b->tsec + b->types, v);
	b->types += 4;
}

/* a type record: name, kind, vlen, size-or-type; returns its id */
static uint32_t type_add(struct builder *b, const char *name, uint32_t kind, uint32_t vlen,
                         uint32_t sizetype)
{
	t32(b, name != NULL ? str_add(b, name) : 0);
	t32(b, kind << 26 | 1u << 25 | vlen);
	t32(b, sizetype);
	return ++b->ntypes;
}

static void var_add(struct builder *b, const char *name, uint32_t type)
{
	put32(b->vsec + b->vlen, str_add(b, name));
	put32(b->vsec + b->vlen + 4, type);
	b->vlen += 8;
}

/* header + vars + types + strings into b->buf; returns the length */
static size_t dict_finish(struct builder *b)
{
	uint8_t *h = b->buf;
	memset(h, 0, 52);
	h[0] = 0xf2;
	h[1] = 0xdf;
	h[2] = 4;
	h[3] = 0;
	put32(h + 4 + 4 * 8, 0);                        /* vars at 0 */
	put32(h + 4 + 4 * 9, b->vlen);                  /* types */
	put32(h + 4 + 4 * 10, b->vlen + b->types);      /* strings */
	put32(h + 4 + 4 * 11, b->slen);
	memcpy(h + 52, b->vsec, b->vlen);
	memcpy(h + 52 + b->vlen, b->tsec, b->types);
	memcpy(h + 52 + b->vlen + b->types, b->ssec, b->slen);
	return 52 + b->vlen + b->types + b->slen;
}

/*
 * 1 int, 2 struct s { int a; struct s *next; unsigned f:3 (a slice) },
 * 3 struct s *, 4 typedef s_t, 5 int (*)(struct s *, ...) as a function,
 * 6 enum e { E0, E1 = 7 }, 7 char [16], 8 slice of 1 (3 bits);
 * variables: fn (5), head (3), name (7).
 */
static size_t dict_small(struct builder *b)
{
	memset(b, 0, sizeof(*b));
	str_add(b, "");
	type_add(b, "int", CTF_KIND_INT, 0, 4);
	t32(b, CTF_ENC_SIGNED << 24 | 32);
	type_add(b, "s", CTF_KIND_STRUCT, 3, 24);
	t32(b, str_add(b, "a")); t32(b, 0); t32(b, 1);
	t32(b, str_add(b, "next")); t32(b, 64); t32(b, 3);
	t32(b, str_add(b, "f")); t32(b, 128); t32(b, 8);
	type_add(b, NULL, CTF_KIND_PTR, 0, 2);
	type_add(b, "s_t", CTF_KIND_TYPEDEF, 0, 2);
	type_add(b, NULL, CTF_KIND_FUNC, 2, 1);
	t32(b, 3); t32(b, 0);                           /* (struct s *, ...) */
	type_add(b, "e", CTF_KIND_ENUM, 2, 4);
	t32(b, str_add(b, "E0")); t32(b, 0);
	t32(b, str_add(b, "E1")); t32(b, 7);
	type_add(b, NULL, CTF_KIND_ARRAY, 0, 0);
	t32(b, 1); t32(b, 1); t32(b, 16);               /* int [16] */
	type_add(b, NULL, CTF_KIND_SLICE, 0, 1);
	t32(b, 1); t32(b, 3u << 16 | 0);
	var_add(b, "fn", 5);
	var_add(b, "head", 3);
	var_add(b, "name", 7);
	return dict_finish(b);
}

/* ---- walking everything a dict has ---- */

static void walk_all(const ctf_dict_t *d)
{
	char name[256];
	for (uint32_t id = 0; id <= d->cd_ntypes + 1; id++) {
		ctf_typeinfo_t ti;
		const char *mn;
		uint32_t mt;
		uint64_t off;
		int32_t v;
		ctf_type_name(d, id, name, sizeof(name));
		(void)ctf_resolve(d, id);
		if (ctf_type(d, id, &ti) != 0)
			continue;
		for (uint32_t i = 0; ctf_member(d, id, i, &mn, &mt, &off) == 0; i++)
			assert_true(strlen(mn) < d->cd_strlen);
		for (uint32_t i = 0; ctf_enumerator(d, id, i, &mn, &v) == 0; i++)
			assert_true(strlen(mn) < d->cd_strlen);
		for (uint32_t i = 0; ctf_arg(d, id, i, &mt) == 0; i++)
			assert_true(mt <= d->cd_ntypes);
		(void)ctf_lookup(d, ti.ti_kind, ti.ti_name);
	}
}

static void test_small(void **state)
{
	struct builder b;
	ctf_dict_t d;
	char name[128];
	const char *mn;
	uint32_t mt;
	uint64_t off;

	(void)state;
	size_t len = dict_small(&b);
	int rc = ctf_open(&d, b.buf, len, malloc);
	if (rc != 0)
		print_message("refused: %s\n", d.cd_err);
	assert_int_equal(rc, 0);
	assert_int_equal(d.cd_ntypes, 8);
	assert_int_equal(ctf_lookup(&d, CTF_KIND_STRUCT, "s"), 2);
	assert_int_equal(ctf_lookup(&d, CTF_KIND_TYPEDEF, "s_t"), 4);
	assert_int_equal(ctf_lookup(&d, CTF_KIND_INT, "int"), 1);
	assert_int_equal(ctf_lookup(&d, CTF_KIND_UNION, "s"), 0);
	assert_int_equal(ctf_var(&d, "head"), 3);
	assert_int_equal(ctf_var(&d, "fn"), 5);
	assert_int_equal(ctf_var(&d, "nope"), 0);
	assert_int_equal(ctf_resolve(&d, 4), 2);
	assert_int_equal(ctf_member(&d, 2, 1, &mn, &mt, &off), 0);
	assert_string_equal(mn, "next");
	assert_int_equal(mt, 3);
	assert_int_equal(off, 64);
	assert_int_equal(ctf_member(&d, 2, 3, &mn, &mt, &off), -1);
	assert_string_equal(ctf_type_name(&d, 3, name, sizeof(name)), "struct s *");
	assert_string_equal(ctf_type_name(&d, 7, name, sizeof(name)), "int [16]");
	assert_string_equal(ctf_type_name(&d, 5, name, sizeof(name)), "int (*)(struct s *, ...)");
	assert_string_equal(ctf_type_name(&d, 6, name, sizeof(name)), "enum e");
	ctf_typeinfo_t ti;
	assert_int_equal(ctf_type(&d, 8, &ti), 0);
	assert_int_equal(ti.ti_bits, 3);
	assert_int_equal(ctf_type(&d, 5, &ti), 0);
	assert_true(ti.ti_varargs);
	assert_int_equal(ti.ti_vlen, 1);
	int32_t v;
	assert_int_equal(ctf_enumerator(&d, 6, 1, &mn, &v), 0);
	assert_string_equal(mn, "E1");
	assert_int_equal(v, 7);
	assert_int_equal(ctf_func_argname(&d, "fn", false, 0, name, sizeof(name)), 0);
	assert_string_equal(name, "struct s *");
	assert_int_equal(ctf_func_argname(&d, "fn", false, 1, name, sizeof(name)), -1);
	assert_int_equal(ctf_func_argname(&d, "fn", true, 1, name, sizeof(name)), 0);
	assert_string_equal(name, "int");
	assert_int_equal(ctf_func_argname(&d, "head", false, 0, name, sizeof(name)), -1);
	walk_all(&d);
}

/* Each corruption ctf_open must refuse, and say why. */
static void test_small_refused(void **state)
{
	struct builder b;
	ctf_dict_t d;
	size_t len;

	(void)state;
	len = dict_small(&b);
	b.buf[0] ^= 1;                                   /* magic */
	assert_int_equal(ctf_open(&d, b.buf, len, malloc), -1);
	assert_non_null(d.cd_err);
	len = dict_small(&b);
	b.buf[2] = 3;                                    /* version 2 */
	assert_int_equal(ctf_open(&d, b.buf, len, malloc), -1);
	len = dict_small(&b);
	b.buf[3] = 1;                                    /* compressed */
	assert_int_equal(ctf_open(&d, b.buf, len, malloc), -1);
	len = dict_small(&b);
	assert_int_equal(ctf_open(&d, b.buf, len - 1, malloc), -1);    /* cut: strings */
	assert_int_equal(ctf_open(&d, b.buf, 51, malloc), -1);         /* cut: header */
	assert_int_equal(ctf_open(&d, NULL, 0, malloc), -1);
	len = dict_small(&b);
	put32(b.buf + 52 + b.vlen + 16 + 12 + 8, 99);    /* struct s's a: type 99 */
	assert_int_equal(ctf_open(&d, b.buf, len, malloc), -1);
	assert_string_equal(d.cd_err, "a type names a bad string or type");
	len = dict_small(&b);
	put32(b.buf + 52, 0x7fff0000);                   /* a variable's name */
	assert_int_equal(ctf_open(&d, b.buf, len, malloc), -1);
	len = dict_small(&b);
	put32(b.buf + 52 + b.vlen + 4, 40u << 26);       /* an unknown kind */
	assert_int_equal(ctf_open(&d, b.buf, len, malloc), -1);
	len = dict_small(&b);
	put32(b.buf + 52 + b.vlen + 16 + 4, (uint32_t)CTF_KIND_STRUCT << 26 | 0xffffff);
	assert_int_equal(ctf_open(&d, b.buf, len, malloc), -1);         /* members past the end */
	len = dict_small(&b);
	b.buf[len - 1] = 'x';                            /* strings not NUL-terminated */
	assert_int_equal(ctf_open(&d, b.buf, len, malloc), -1);
	len = dict_small(&b);
	put32(b.buf + 4 + 4 * 1, 5);                     /* a child dict */
	assert_int_equal(ctf_open(&d, b.buf, len, malloc), -1);
}

/* Typedefs that name each other: accepted (each reference is valid), and bounded. */
static void test_typedef_loop(void **state)
{
	struct builder b;
	ctf_dict_t d;
	char name[64];

	(void)state;
	memset(&b, 0, sizeof(b));
	str_add(&b, "");
	type_add(&b, "a", CTF_KIND_TYPEDEF, 0, 2);
	type_add(&b, "b", CTF_KIND_TYPEDEF, 0, 1);
	type_add(&b, NULL, CTF_KIND_PTR, 0, 3);          /* points at itself */
	size_t len = dict_finish(&b);
	assert_int_equal(ctf_open(&d, b.buf, len, malloc), 0);
	assert_int_equal(ctf_resolve(&d, 1), 0);
	ctf_type_name(&d, 1, name, sizeof(name));
	ctf_type_name(&d, 3, name, sizeof(name));
	assert_true(strlen(name) < sizeof(name));
	walk_all(&d);
}

/* ---- the real kernel's dict ---- */

static uint8_t *kernel_read(size_t *len)
{
	FILE *f = fopen(TEST_CTF_PATH, "rb");
	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(*len);
	if (fread(b, 1, *len, f) != *len) {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

static void test_kernel(void **state)
{
	size_t len;
	uint8_t *buf = kernel_read(&len);
	ctf_dict_t d;
	char name[128];

	(void)state;
	if (buf == NULL)
		skip();
	assert_int_equal(ctf_open(&d, buf, len, malloc), 0);
	uint32_t th = ctf_lookup(&d, CTF_KIND_STRUCT, "thread");
	assert_true(th != 0);
	ctf_typeinfo_t ti;
	assert_int_equal(ctf_type(&d, th, &ti), 0);
	assert_true(ti.ti_size > 0 && ti.ti_vlen > 0);
	assert_true(ctf_var(&d, "ncpus") != 0);
	assert_string_equal(ctf_type_name(&d, ctf_var(&d, "ncpus"), name, sizeof(name)), "int");
	assert_int_equal(ctf_func_argname(&d, "kmalloc", false, 0, name, sizeof(name)), 0);
	assert_string_equal(name, "size_t");
	assert_int_equal(ctf_func_argname(&d, "kmalloc", true, 1, name, sizeof(name)), 0);
	assert_string_equal(name, "void *");
	walk_all(&d);
	free(buf);
}

/* Every truncation of the header and of the first types, then random byte changes. */
static void test_kernel_mutated(void **state)
{
	size_t len;
	uint8_t *orig = kernel_read(&len);
	ctf_dict_t d;
	uint32_t seed = 12345, accepted = 0, refused = 0;

	(void)state;
	if (orig == NULL)
		skip();
	uint8_t *buf = malloc(len);
	for (size_t cut = 0; cut < 4096 && cut < len; cut += 13) {
		memcpy(buf, orig, len);
		assert_int_equal(ctf_open(&d, buf, cut, malloc), -1);
		free(d.cd_index);
		free(d.cd_names);
	}
	for (int round = 0; round < 300; round++) {
		memcpy(buf, orig, len);
		for (int k = 0; k < 1 + round % 8; k++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = (round & 1) ? (seed >> 8) % 256 : (seed >> 8) % len;
			buf[at] = (uint8_t)(seed >> 24);
		}
		if (ctf_open(&d, buf, len, malloc) == 0) {
			accepted++;
			walk_all(&d);
		} else {
			refused++;
			assert_non_null(d.cd_err);
		}
		free(d.cd_index);
		free(d.cd_names);
	}
	assert_true(refused > 0);
	print_message("kernel dict: %zu bytes; %u mutated copies refused, %u accepted and "
	              "walked\n", len, refused, accepted);
	free(buf);
	free(orig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_small_refused),
		cmocka_unit_test(test_typedef_loop),
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_kernel_mutated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
