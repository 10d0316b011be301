/*
 * ASSERTION: aggsortkey with aggsortrev sorts by key, descending.
 */
#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortrev

BEGIN
{
	@["c"] = sum(2);
	@["a"] = sum(3);
	@["b"] = sum(1);
	exit(0);
}
