/*
 * ASSERTION: aggsortkey with aggsortrev sorts by key descending.
 */
#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortrev

BEGIN
{
	@["b"] = sum(1);
	@["d"] = sum(2);
	@["a"] = sum(3);
	@["c"] = sum(4);
	exit(0);
}
