/*
 * ASSERTION: stddev() keeps the sum of squares in 128 bits: values whose
 * squares overflow 64 bits still give the exact result (0 and 4e18 give
 * 2e18; 3e9 and 5e9 give 1e9; -4e18 and 0 give 2e18).
 */
#pragma D option quiet

BEGIN
{
	@sd["a"] = stddev(0);
	@sd["a"] = stddev(4000000000000000000);
	@sd["b"] = stddev(3000000000);
	@sd["b"] = stddev(5000000000);
	@sd["c"] = stddev(-4000000000000000000);
	@sd["c"] = stddev(0);
	exit(0);
}
