/*
 * ASSERTION: an aggsortkeypos at or beyond the number of key members is
 * treated as 0: with aggsortkey the entries still sort by key from the
 * first member.
 */
#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortkeypos=5

BEGIN
{
	@["b", 1] = sum(1);
	@["a", 2] = sum(3);
	@["c", 0] = sum(2);
	exit(0);
}
