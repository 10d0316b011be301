/*
 * ASSERTION: the same aggregation may appear twice in a printa() list;
 * each of its %@ conversions prints its value.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = sum(4);
	@a["y"] = sum(2);
	printa("%s %@d %@d\n", @a, @a);
	exit(0);
}
