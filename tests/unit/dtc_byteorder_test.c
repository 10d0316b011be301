/*
 * dtc_byteorder_test.c - the consumer's formatting of recorded values on both
 * byte orders: print() of scalars and struct members (dtc_typeprint.c) and
 * printf's %f of a float (dtc_format.c, dtc_float.c), rawbytes' dump of a
 * scalar (dtc_scalar_bytes, as dtc_print.c uses it), and printf's %Lf of a
 * long double in the machine's own format (x87 on the host, IEEE quad on
 * sparc64).
 *
 * Probe context records a scalar as one 64-bit value in this machine's byte
 * order, so a 4-byte int's bits are the record's last 4 bytes on a
 * big-endian machine, not its first; a struct member is an object of its
 * own size at its offset.  Code that reads "the first size bytes" is right
 * on x86_64 only.  sparc64 (big-endian) found the bugs these check: print()
 * showed every int, short and char as 0, printf("%f") every float as 0.
 *
 * Plain C (no cmocka), so that it runs twice: built for the host by
 * `make kunit-check`, and cross-built for sparc64 and run under qemu-user
 * (qemu-sparc64) by `make kunit-be-check` (mk/sparc64.mk): the same checks
 * on a big-endian machine.  Output is captured by this file's dtc_out; the
 * few consumer functions the formatters call and these checks never reach
 * are stubs.
 */
#include <float.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/dtrace/dtc.h"

static char out[4096];
static size_t outlen;
static int failures;

void dtc_out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(out + outlen, sizeof(out) - outlen, fmt, ap);
	va_end(ap);
	if (n > 0)
		outlen = outlen + (size_t)n < sizeof(out) ? outlen + (size_t)n : sizeof(out) - 1;
}

void *kmalloc(size_t n) { return malloc(n); }
void kfree(void *p) { free(p); }

void dt_type_name(const dt_type *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s", t->ty_name);
}

/* Reached only by %a/%k/stack conversions, which these checks do not use. */
void dtc_print_sym(uint64_t addr, bool offset, char *buf, size_t size)
{
	(void)addr; (void)offset;
	snprintf(buf, size, "?");
}
void dtc_print_stack_fmt(const uint64_t *pcs, uint32_t n, int indent, const char *spec)
{
	(void)pcs; (void)n; (void)indent; (void)spec;
}
void dtc_print_ustack_fmt(const uint64_t *rec, uint32_t n, int indent, const char *spec)
{
	(void)rec; (void)n; (void)indent; (void)spec;
}

static void expect(const char *what, const char *want)
{
	if (strcmp(out, want) != 0) {
		printf("FAIL %s: want \"%s\", got \"%s\"\n", what, want, out);
		failures++;
	} else {
		printf("ok %s\n", what);
	}
	outlen = 0;
	out[0] = 0;
}

static dt_type t_int = { .ty_kind = DT_TK_INT, .ty_size = 4, .ty_signed = true, .ty_name = "int" };
static dt_type t_short = { .ty_kind = DT_TK_INT, .ty_size = 2, .ty_signed = true, .ty_name = "short" };
static dt_type t_u8 = { .ty_kind = DT_TK_INT, .ty_size = 1, .ty_name = "uint8_t" };
static dt_type t_float = { .ty_kind = DT_TK_FLOAT, .ty_size = 4, .ty_name = "float" };

/* A scalar's record, as probe context writes it: the value as 64 bits, in this machine's order. */
static const uint8_t *record(uint64_t v)
{
	static uint8_t rec[8];
	memcpy(rec, &v, 8);
	return rec;
}

static void test_print_scalars(void)
{
	dtc_print_typed(&t_int, NULL, record(10));
	expect("print() of an int", "int 0xa\n");
	dtc_print_typed(&t_short, NULL, record((uint64_t)-1));
	expect("print() of a short", "short 0xffff\n");
	dtc_print_typed(&t_u8, NULL, record(200));
	expect("print() of a uint8_t", "uint8_t 0xc8\n");
	dtc_print_typed(&t_float, NULL, record(0x3fc00000));       /* 1.5 */
	expect("print() of a float", "float 1.5\n");
}

static void test_print_members(void)
{
	struct { int a; short s; uint8_t c; } obj = { 0x2a, -1, 200 };
	dt_member mc = { "c", &t_u8, (uint32_t)offsetof(__typeof__(obj), c), NULL };
	dt_member ms = { "s", &t_short, (uint32_t)offsetof(__typeof__(obj), s), &mc };
	dt_member ma = { "a", &t_int, 0, &ms };
	dt_type t_sou = { .ty_kind = DT_TK_STRUCT, .ty_size = sizeof(obj), .ty_name = "struct st",
	                  .ty_members = &ma };

	dtc_print_typed(&t_sou, NULL, (const uint8_t *)&obj);
	expect("print() of a struct's members",
	       "struct st {\n    int a = 0x2a\n    short s = 0xffff\n    uint8_t c = 0xc8\n}\n");
}

/* rawbytes' trace() of a short (dtc_print.c): the bytes of a short, not the record's first two. */
static void test_scalar_bytes(void)
{
	const short s = 258;
	uint8_t got[8];
	uint64_t rec;

	memcpy(&rec, record(258), 8);
	dtc_scalar_bytes(got, rec, 2);
	if (memcmp(got, &s, 2) != 0) {
		printf("FAIL the bytes of a short from its record: %02x %02x\n", got[0], got[1]);
		failures++;
	} else {
		printf("ok the bytes of a short from its record\n");
	}
}

static void test_printf_float(void)
{
	dt_conv cv = { .cv_kind = DT_CONV_FLT, .cv_spec = "%f", .cv_name = "f", .cv_ofmt = 'f' };
	const uint8_t *rec = record(0x40490fdb);                    /* pi, single */
	struct dtc_value v = { .dv_kind = DTC_VAL_INT, .dv_int = 0x40490fdb, .dv_size = 4, .dv_raw = rec };

	dtc_conv_print(&cv, &v, 0, 0);
	expect("printf %f of a float", "3.141593");
}

/*
 * printf's %Le %Lf %Lg of a long double in this machine's own format, which
 * the C compiler and its library know: x86's 80-bit extended on the host,
 * IEEE quad under qemu-sparc64 (arch/arch.h's ARCH_LDOUBLE_FORMAT).  The
 * consumer's result must be the C library's, digit for digit.
 */
static void test_printf_long_double(void)
{
	static const long double vals[] = {
		3.14159265358979323846264338327950288L, 1.0L, -1.0L, 0.1L, 1e300L, -2.5e-300L,
		1e4000L, LDBL_MAX, -LDBL_MIN, LDBL_TRUE_MIN, LDBL_EPSILON, 123456789012345678901234567890.0L, 0.0L,
	};
	static const char *const specs[] = { "%f", "%e", "%g", "%.36f", "%.40e", "%.30g", "%#.0f" };
	char want[6000], got[6000], lspec[16];
	uint8_t b[16];
	int bad = 0;

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		memset(b, 0, sizeof(b));
		memcpy(b, &vals[i], sizeof(vals[i]) < 16 ? sizeof(vals[i]) : 16);
		for (size_t j = 0; j < sizeof(specs) / sizeof(specs[0]); j++) {
			size_t n = strlen(specs[j]);
			memcpy(lspec, specs[j], n - 1);                  /* "%.36f" -> "%.36Lf" */
			lspec[n - 1] = 'L';
			lspec[n] = specs[j][n - 1];
			lspec[n + 1] = 0;
			snprintf(want, sizeof(want), lspec, vals[i]);
			dtc_float_format(got, sizeof(got), specs[j], b, 16);
			if (strcmp(want, got) != 0 && bad++ < 8)
				printf("FAIL %s of long double %zu: want \"%.60s\", got \"%.60s\"\n", lspec, i,
				       want, got);
		}
	}
	if (bad != 0)
		failures++;
	else
		printf("ok printf %%Le %%Lf %%Lg of this machine's long double\n");
}

int main(void)
{
	const uint16_t one = 1;

	printf("# %s-endian\n", *(const uint8_t *)&one ? "little" : "big");
	test_print_scalars();
	test_print_members();
	test_scalar_bytes();
	test_printf_float();
	test_printf_long_double();
	printf("# %d failed\n", failures);
	return failures != 0;
}
