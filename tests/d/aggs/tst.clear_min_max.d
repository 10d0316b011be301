/*
 * ASSERTION: clear() zeroes min(), max(), avg() and stddev() values too:
 * a cleared entry prints 0, not the initial value of the function.
 */
#pragma D option quiet

BEGIN
{
	@mn["k"] = min(5);
	@mx["k"] = max(-5);
	@av["k"] = avg(10);
	@sd["k"] = stddev(10);
	@sd["k"] = stddev(20);
	clear(@mn);
	clear(@mx);
	clear(@av);
	clear(@sd);
	exit(0);
}
