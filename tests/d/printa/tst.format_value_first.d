/*
 * ASSERTION: %@ may come before the key conversions and the keys are still
 * consumed in order.
 */
#pragma D option quiet

BEGIN
{
	@a["x", "y"] = sum(42);
	printa("%@d <- %s %s\n", @a);
	exit(0);
}
