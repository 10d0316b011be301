/*
 * ASSERTION: avg() entries sort by their integer average; equal averages
 * (10 from 10/1 and from 21/2) tie and fall back to the key.
 */
#pragma D option quiet

BEGIN
{
	@["b"] = avg(10);
	@["a"] = avg(10);
	@["a"] = avg(11);
	@["c"] = avg(-4);
	@["d"] = avg(9);
	exit(0);
}
