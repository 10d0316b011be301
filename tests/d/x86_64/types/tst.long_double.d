/*
 * ASSERTION: a long double (16 bytes, the x86 80-bit extended format in
 * the first 10) built in scratch is loaded by reference and formatted by
 * %e %f %g from its bytes, as C formats it.  (The stores into scratch are
 * D's pointer rules: this test needs them as much as the formatting.)
 */
/* @@options: -q */

BEGIN
{
	this->p = (uint64_t *)alloca(16);
	this->p[0] = 0xc90fdaa22168c235;	/* pi: mantissa */
	this->p[1] = 0x4000;			/* sign and exponent */
	this->ld = (long double *)this->p;
	printf("%f %e %g %.18f\n", *this->ld, *this->ld, *this->ld,
	    *this->ld);
	this->p[0] = 0x8000000000000000;	/* 1.0 */
	this->p[1] = 0x3fff;
	printf("%f %g\n", *this->ld, *this->ld);
	this->p[1] = 0xbfff;			/* -1.0 */
	printf("%e\n", *this->ld);
	exit(0);
}
