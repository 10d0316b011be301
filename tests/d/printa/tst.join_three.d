/*
 * ASSERTION: three aggregations of different functions (count, avg, max)
 * join on a tuple key; a key missing from one prints 0 for it.
 */
#pragma D option quiet

BEGIN
{
	@n["r", 1] = count();
	@n["r", 1] = count();
	@n["w", 2] = count();
	@avg["r", 1] = avg(10);
	@avg["r", 1] = avg(20);
	@avg["w", 2] = avg(8);
	@mx["r", 1] = max(18);
	@mx["o", 3] = max(4);
	printa("%s %d: n=%@d avg=%@d max=%@d\n", @n, @avg, @mx);
	exit(0);
}
