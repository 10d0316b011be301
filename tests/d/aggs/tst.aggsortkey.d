/*
 * ASSERTION: with aggsortkey, entries sort by key (the first key member,
 * then the next) instead of by value.
 */
#pragma D option quiet
#pragma D option aggsortkey

BEGIN
{
	@["c", 1] = sum(1);
	@["a", 2] = sum(3);
	@["b", 1] = sum(2);
	@["a", 1] = sum(4);
	exit(0);
}
