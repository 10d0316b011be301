/*
 * ASSERTION: normalize(@, n) divides every printed value by n (integer
 * division, toward zero for negative sums) without changing the data.
 */
#pragma D option quiet

BEGIN
{
	@["a"] = sum(100);
	@["b"] = sum(255);
	@["c"] = sum(-35);
	@["d"] = sum(9);
	normalize(@, 10);
	exit(0);
}
