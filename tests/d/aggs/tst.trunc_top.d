/*
 * ASSERTION: trunc(@, 2) keeps the two entries with the largest values
 * and removes the rest.
 */
#pragma D option quiet

BEGIN
{
	@["a"] = sum(1);
	@["b"] = sum(50);
	@["c"] = sum(7);
	@["d"] = sum(-100);
	@["e"] = sum(30);
	trunc(@, 2);
	exit(0);
}
