/*
 * dtc_float_test.c - the consumer's %e %f %g of float, double and long
 * double bytes (console/dtrace/dtc_float.c), which uses integers only,
 * against the host C library's printf of the same values: fixed cases
 * (ties, extremes, subnormals, infinities, NaN, flags and widths), then
 * pseudo-random bit patterns of each format.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

size_t dtc_float_format(char *buf, size_t size, const char *spec, const uint8_t *bytes,
                        uint32_t len);
size_t dtc_float_format_as(char *buf, size_t size, const char *spec, const uint8_t *bytes,
                           uint32_t len, int ldfmt);
void dtc_float_of_int(uint64_t v, uint32_t len, uint8_t *bytes);
void *kmalloc(size_t n);
void kfree(void *p);

void *kmalloc(size_t n) { return malloc(n); }
void kfree(void *p) { free(p); }

static const char *const specs[] = {
	"%f", "%e", "%g", "%E", "%G", "%.3f", "%.1e", "%.10g", "%#g", "%#.0e", "%+12.4f",
	"%-12.2e", "%012.3f", "% g", "%.0e", "%.1g", "%.17g", "%.30f", "%20.15e", "%.0f",
};
#define NSPECS (sizeof(specs) / sizeof(specs[0]))

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void check_double(uint64_t bits, const char *spec)
{
	char want[1200], got[1200];
	double d;

	memcpy(&d, &bits, 8);
	snprintf(want, sizeof(want), spec, d);
	dtc_float_format(got, sizeof(got), spec, (const uint8_t *)&bits, 8);
	if (strcmp(want, got) != 0)
		fail_msg("%s of 0x%016llx: want \"%s\", got \"%s\"", spec,
		         (unsigned long long)bits, want, got);
}

static void check_float(uint32_t bits, const char *spec)
{
	char want[1200], got[1200];
	float f;

	memcpy(&f, &bits, 4);
	snprintf(want, sizeof(want), spec, (double)f);
	dtc_float_format(got, sizeof(got), spec, (const uint8_t *)&bits, 4);
	if (strcmp(want, got) != 0)
		fail_msg("%s of float 0x%08x: want \"%s\", got \"%s\"", spec, bits, want, got);
}

static void check_ldouble(uint64_t mant, uint16_t se, const char *spec)
{
	char want[6000], got[6000], lspec[32];
	uint8_t b[16] = { 0 };
	long double ld;
	size_t n = strlen(spec);

	memcpy(b, &mant, 8);
	memcpy(b + 8, &se, 2);
	memcpy(&ld, b, sizeof(ld) < 16 ? sizeof(ld) : 16);
	memcpy(lspec, spec, n - 1);
	lspec[n - 1] = 'L';
	lspec[n] = spec[n - 1];
	lspec[n + 1] = 0;
	snprintf(want, sizeof(want), lspec, ld);
	dtc_float_format(got, sizeof(got), spec, b, 16);
	if (strcmp(want, got) != 0)
		fail_msg("%s of long double %016llx/%04x: want \"%.60s\", got \"%.60s\"", spec,
		         (unsigned long long)mant, se, want, got);
}

/*
 * A float or double in a 64-bit integer record (printf's argument): the
 * value's low bits are the float, whatever the high half holds and however
 * the machine orders the record's bytes (sparc64 puts the high half first).
 */
static void test_float_of_int(void **state)
{
	uint8_t b[8];
	char got[64];

	(void)state;
	dtc_float_of_int(0x40490fdbull, 4, b);                   /* pi, single */
	dtc_float_format(got, sizeof(got), "%f", b, 4);
	assert_string_equal(got, "3.141593");
	dtc_float_of_int(0xdeadbeef3fc00000ull, 4, b);           /* 1.5, high half ignored */
	dtc_float_format(got, sizeof(got), "%g", b, 4);
	assert_string_equal(got, "1.5");
	dtc_float_of_int(0x400921fb54442d18ull, 8, b);           /* pi, double */
	dtc_float_format(got, sizeof(got), "%.10f", b, 8);
	assert_string_equal(got, "3.1415926536");
}

static void test_fixed(void **state)
{
	static const uint64_t cases[] = {
		0x400921fb54442d18ull, 0x3ff8000000000000ull, 0x4004000000000000ull,
		0x3fd0000000000000ull, 0x3fe8000000000000ull, 0x7fefffffffffffffull,
		0x0000000000000001ull, 0x000fffffffffffffull, 0x8000000000000000ull,
		0x0000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
		0x7ff8000000000000ull, 0x3f1a36e2eb1c432dull, 0x412e848000000000ull,
		0x3fefffffffffffffull, 0x4058fffffffffffeull, 0xbff0000000000000ull,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (size_t s = 0; s < NSPECS; s++)
			check_double(cases[i], specs[s]);
}

static void test_random(void **state)
{
	(void)state;
	for (int i = 0; i < 3000; i++) {
		check_double(next(), specs[i % NSPECS]);
		check_float((uint32_t)next(), specs[(i + 7) % NSPECS]);
	}
}

static void test_long_double(void **state)
{
	static const char *const lspecs[] = { "%f", "%e", "%g", "%.30e", "%.3f" };

	(void)state;
	check_ldouble(0xc90fdaa22168c235ull, 0x4000, "%f");
	check_ldouble(0x8000000000000000ull, 0x3fff, "%g");
	check_ldouble(0x8000000000000000ull, 0xbfff, "%e");
	for (int i = 0; i < 300; i++) {
		uint16_t se = (uint16_t)(i % 2 ? 16383 + next() % 200 - 100 : next() % 0x7ffe);
		check_ldouble(next() | (1ull << 63), (uint16_t)(se | (next() & 1 ? 0x8000 : 0)),
		              lspecs[i % 5]);
	}
}

/*
 * IEEE quad (SPARC V9's long double) from its two 64-bit halves, in this
 * (the host's) byte order, against the exact values' correctly rounded
 * digits (worked out with exact rational arithmetic): pi and 0.1 rounded
 * to quad, the smallest denormal and the largest finite value.
 */
static void check_quad(uint64_t hi, uint64_t lo, const char *spec, const char *want)
{
	const uint16_t one = 1;
	bool little = *(const uint8_t *)&one == 1;
	uint8_t b[16];
	char got[6000];

	memcpy(b + (little ? 8 : 0), &hi, 8);
	memcpy(b + (little ? 0 : 8), &lo, 8);
	dtc_float_format_as(got, sizeof(got), spec, b, 16, 2 /* ARCH_LDOUBLE_QUAD */);
	if (strcmp(want, got) != 0)
		fail_msg("%s of quad %016llx%016llx: want \"%s\", got \"%.80s\"", spec,
		         (unsigned long long)hi, (unsigned long long)lo, want, got);
}

static void test_quad(void **state)
{
	(void)state;
	check_quad(0x4000921fb54442d1ull, 0x8469898cc51701b8ull, "%.36f", "3.141592653589793238462643383279502797");
	check_quad(0x4000921fb54442d1ull, 0x8469898cc51701b8ull, "%.30e", "3.141592653589793238462643383280e+00");
	check_quad(0x4000921fb54442d1ull, 0x8469898cc51701b8ull, "%f", "3.141593");
	check_quad(0x4000921fb54442d1ull, 0x8469898cc51701b8ull, "%g", "3.14159");
	check_quad(0x3ffb999999999999ull, 0x999999999999999aull, "%.36f", "0.100000000000000000000000000000000005");
	check_quad(0x3ffb999999999999ull, 0x999999999999999aull, "%.30e", "1.000000000000000000000000000000e-01");
	check_quad(0x3fff000000000000ull, 0, "%f", "1.000000");
	check_quad(0xbfff000000000000ull, 0, "%e", "-1.000000e+00");
	check_quad(0, 1, "%.30e", "6.475175119438025110924438958228e-4966");
	check_quad(0x7ffeffffffffffffull, 0xffffffffffffffffull, "%.30e", "1.189731495357231765085759326628e+4932");
	check_quad(0x7fff000000000000ull, 0, "%f", "inf");
	check_quad(0xffff800000000000ull, 0, "%f", "-nan");
	check_quad(0, 0, "%g", "0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_float_of_int),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_long_double),
		cmocka_unit_test(test_quad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
