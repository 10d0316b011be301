/*
 * ASSERTION: printa(@a, @b) without a format prints one line per key of
 * either aggregation, the key then each aggregation's value (0 where an
 * aggregation has no entry for the key), sorted by the first
 * aggregation's value, then the next, then the key.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@b["x"] = sum(5);
	@b["z"] = sum(7);
	printa(@a, @b);
	exit(0);
}
