/*
 * ASSERTION: on sparc64 a long double is IEEE quad (16 bytes: sign, a
 * 15-bit exponent and a 112-bit fraction, big-endian): one built in scratch
 * is loaded by reference and formatted by %e %f %g from its bytes, as C
 * formats it, to the last digit asked for.  (The x86_64 counterpart, with
 * x87's 80-bit format, is tests/d/types/tst.long_double.d.)
 */
/* @@options: -q */

BEGIN
{
	this->p = (uint64_t *)alloca(16);
	this->p[0] = 0x4000921fb54442d1;	/* pi, rounded to quad */
	this->p[1] = 0x8469898cc51701b8;
	this->ld = (long double *)this->p;
	printf("%f %e %g\n", *this->ld, *this->ld, *this->ld);
	printf("%.36f\n", *this->ld);
	this->p[0] = 0x3ffb999999999999;	/* 0.1 */
	this->p[1] = 0x999999999999999a;
	printf("%.36Lf %.30Le\n", *this->ld, *this->ld);
	this->p[0] = 0x3fff000000000000;	/* 1.0 */
	this->p[1] = 0;
	printf("%f %g\n", *this->ld, *this->ld);
	this->p[0] = 0xbfff000000000000;	/* -1.0 */
	printf("%e\n", *this->ld);
	this->p[0] = 0;				/* the smallest denormal */
	this->p[1] = 1;
	printf("%.30e\n", *this->ld);
	exit(0);
}
