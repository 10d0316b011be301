/*
 * ASSERTION: with aggsortrev, entries sort by value descending, and ties
 * are broken by key descending too.
 */
#pragma D option quiet
#pragma D option aggsortrev

BEGIN
{
	@["a"] = sum(1);
	@["b"] = sum(5);
	@["c"] = sum(5);
	@["d"] = sum(3);
	exit(0);
}
