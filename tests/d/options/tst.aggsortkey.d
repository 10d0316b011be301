/*
 * ASSERTION: aggsortkey sorts the entries by key instead of by value.
 */
#pragma D option quiet
#pragma D option aggsortkey

BEGIN
{
	@["c"] = sum(2);
	@["a"] = sum(3);
	@["b"] = sum(1);
	exit(0);
}
