/*
 * ASSERTION: clear(@a) leaves other aggregations alone.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = sum(10);
	@b["x"] = sum(20);
	clear(@a);
	exit(0);
}
