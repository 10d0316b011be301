/*
 * ASSERTION: a translator may produce a union, and a struct with bit-field
 * members; whole translations store each (a bit-field cut to its bits).
 */
/* @@options: -q */

union u { int i; char c; };
struct bf { int lo : 4; int hi : 4; long n; };
translator union u < int x > { i = x; };
translator struct bf < int x > { lo = x; hi = x >> 4; n = x * 2; };
union u uv;
struct bf b;
BEGIN
{
	uv = xlate<union u>(0x41414141);	/* every byte "A": either byte order */
	b = xlate<struct bf>(0x35);
	printf("%c %d %d %d %d\n", uv.c, xlate<union u>(7).i, b.lo, b.hi, b.n);
	exit(0);
}
