/*
 * ASSERTION: %@d prints avg() as the integer average and stddev() as the
 * integer standard deviation, as the default output does.
 */
#pragma D option quiet

BEGIN
{
	@a["k"] = avg(3);
	@a["k"] = avg(4);
	@a["k"] = avg(6);
	@s["k"] = stddev(2);
	@s["k"] = stddev(4);
	@s["k"] = stddev(4);
	@s["k"] = stddev(4);
	@s["k"] = stddev(5);
	@s["k"] = stddev(5);
	@s["k"] = stddev(7);
	@s["k"] = stddev(9);
	printa("avg %s %@d\n", @a);
	printa("stddev %s %@d\n", @s);
	printa("both %s %@d %@d\n", @a, @s);
	exit(0);
}
