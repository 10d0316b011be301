/*
 * ASSERTION: printa() formats: %@ takes width, precision and flags like
 * any conversion (%8@d, %-8@d, %08@d, %@x); count() is unsigned so %+@d
 * shows no sign; sum() and min() are signed; an average is computed
 * unsigned, as libdtrace does, so a negative one prints huge; a * width
 * takes the next key; joined aggregations print one row per key, a
 * missing value as 0, ordered by the first aggregation's value.
 */
#pragma D option quiet

BEGIN
{
	@c["x"] = count(); @c["yy"] = count(); @c["yy"] = count();
	@s["x"] = sum(-5); @s["zz"] = sum(7);
	@a["x"] = avg(-10); @a["x"] = avg(-1);
	@w[6, "six"] = count(); @w[3, "three"] = count();
	@m[-3] = min(-3); @m[2] = min(2);
	printa("[%8@d][%-8@d][%08@d][%@x][%+@d][%@u]\n", @c);
	printa("[%-3s][%8@d][%-4@d][%@d]\n", @c, @s, @a);
	printa("[%*s][%@d]\n", @w);
	printa("[%+d][%@+d][%@5.3d]\n", @m, @m);
	printa("[%@d]\n", @a);
	exit(0);
}
