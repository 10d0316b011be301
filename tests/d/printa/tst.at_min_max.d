/*
 * ASSERTION: %@d prints min() and max() values, the INT64 extremes
 * included.
 */
#pragma D option quiet

BEGIN
{
	@mn["k"] = min(-7);
	@mn["k"] = min(3);
	@mx["k"] = max(-7);
	@mx["k"] = max(3);
	@lo = min((long long)0x8000000000000000);
	@hi = max(0x7fffffffffffffff);
	printa("%s min=%@d max=%@d\n", @mn, @mx);
	printa("%@d\n", @lo);
	printa("%@d\n", @hi);
	exit(0);
}
