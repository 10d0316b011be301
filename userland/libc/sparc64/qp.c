/*
 * qp.c - sparc64: the one software quad-precision routine newlib needs.
 *
 * The SPARC V9 ABI's long double is IEEE quad (128 bits), and the compiler
 * calls _Qp_* routines for it, which glibc provides and newlib does not.
 * newlib's printf converts a long double argument to double (_Qp_qtod);
 * nothing else of them is linked by Sonde's programs.  The conversion
 * truncates the significand (no rounding); zero and quad numbers too
 * small for a double become 0, too large ones infinity.
 *
 * Tests: tests/e2e/test_sparc64_user.py (/bin/proccheck's printf of floating
 *        point)
 */
#include <stdint.h>
#include <string.h>

double _Qp_qtod(const long double *q);

double _Qp_qtod(const long double *q)
{
	uint64_t w[2], bits;
	double d;

	memcpy(w, q, sizeof(w));                          /* big-endian: w[0] holds sign and exponent */
	uint64_t sign = w[0] >> 63;
	int64_t exp = (int64_t)((w[0] >> 48) & 0x7fff);
	uint64_t frac = ((w[0] & 0xffffffffffffUL) << 4) | (w[1] >> 60);   /* the top 52 bits */
	if (exp == 0x7fff) {
		bits = (0x7ffUL << 52) | (frac != 0 ? frac | (1UL << 51) : 0);   /* infinity, NaN */
	} else {
		int64_t e = exp == 0 ? 0 : exp - 16383 + 1023;
		if (e >= 0x7ff)
			bits = 0x7ffUL << 52;
		else if (e <= 0)
			bits = 0;
		else
			bits = ((uint64_t)e << 52) | frac;
	}
	bits |= sign << 63;
	memcpy(&d, &bits, sizeof(d));
	return d;
}
