/*
 * ASSERTION: aggsortkeypos=1 with aggsortkey sorts by the second key
 * member first, then wraps around to the first.
 */
#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortkeypos=1

BEGIN
{
	@["a", 3] = sum(1);
	@["b", 1] = sum(1);
	@["a", 1] = sum(1);
	@["c", 2] = sum(1);
	@["b", 3] = sum(1);
	exit(0);
}
