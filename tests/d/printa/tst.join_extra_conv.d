/*
 * ASSERTION: %@ conversions beyond the number of aggregations repeat the
 * value of the last aggregation.
 */
#pragma D option quiet

BEGIN
{
	@a["k"] = sum(1);
	@b["k"] = sum(2);
	printa("%s %@d %@d %@d\n", @a, @b);
	@c = sum(7);
	printa("%@d %@d\n", @c);
	exit(0);
}
