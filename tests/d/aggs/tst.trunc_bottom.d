/*
 * ASSERTION: trunc(@, -2) (a negative count) keeps the two entries with
 * the smallest values.
 */
#pragma D option quiet

BEGIN
{
	@["a"] = sum(1);
	@["b"] = sum(50);
	@["c"] = sum(7);
	@["d"] = sum(-100);
	@["e"] = sum(30);
	trunc(@, -2);
	exit(0);
}
