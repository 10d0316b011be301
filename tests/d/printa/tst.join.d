/*
 * ASSERTION: printa(fmt, @a, @b) joins the aggregations on equal keys:
 * one line per key present in either, each %@ taking the next
 * aggregation's value and 0 where it has no entry; lines sort by @a's
 * value, then @b's, then the key.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@b["x"] = sum(5);
	@b["z"] = sum(7);
	printa("%s %@d %@d\n", @a, @b);
	exit(0);
}
