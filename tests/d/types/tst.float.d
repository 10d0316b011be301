/*
 * ASSERTION: float and double objects hold bytes that printf's %e %E %f %g
 * %G format as C does (correctly rounded, ties to even), with widths,
 * precisions and flags; a cast between an integer and a float or double
 * keeps the bytes and converts nothing; sizeof is 4, 8 and 16, and a
 * struct lays floating members out at their alignment.
 */
/* @@options: -q */

double d;
float f;
struct fs {
	char c;
	double d;
	float f;
} s;

BEGIN
{
	printf("%d %d %d %d %d\n", sizeof (float), sizeof (double),
	    sizeof (long double), sizeof (struct fs), offsetof(struct fs, f));
	d = (double)0x400921fb54442d18;		/* pi */
	f = (float)0x40490fdb;			/* pi, single */
	printf("%f %e %g %.10f %E %G\n", d, d, d, d, d, d);
	printf("%f %e %g %.10f\n", f, f, f, f);
	s.d = d;
	s.f = f;
	printf("[%10.3f] [%-10.2e] [%+G] [%010.4f] [% f] [%#.1g]\n", s.d, s.f,
	    s.d, s.d, s.d, s.d);
	d = (double)0x3ff8000000000000;		/* 1.5 */
	printf("%.1f %.1e %g %#g\n", d, d, d, d);
	d = (double)0x3fd0000000000000;		/* 0.25: a tie, to even */
	printf("%.1f %.1e %.1f\n", d, d, (double)0x3fe8000000000000);
	d = (double)0x7fefffffffffffff;		/* the largest double */
	printf("%e %g\n", d, d);
	d = (double)0x0000000000000001;		/* the smallest subnormal */
	printf("%e %g %f\n", d, d, d);
	d = (double)0x8000000000000000;		/* negative zero */
	printf("%f %e %g\n", d, d, d);
	d = (double)0x3f1a36e2eb1c432d;		/* 0.0001 */
	printf("%g %g\n", d, (double)0x3ee4f8b588e368f1);
	d = (double)0x412e848000000000;		/* 1000000 */
	printf("%g %g\n", d, (double)0x4163125300000000);
	printf("%f %e %G %5.1f|\n", (double)0x7ff0000000000000,
	    (double)0xfff0000000000000, (double)0x7ff8000000000000,
	    (double)0x7ff0000000000000);
	printf("%d %x\n", (int)f, (uint64_t)s.d);	/* the bytes again */
	exit(0);
}
