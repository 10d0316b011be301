/*
 * ASSERTION: tuple keys print member by member and, for equal values,
 * compare member by member: first the string, then the integer (as
 * unsigned, so -1 last).
 */
#pragma D option quiet

BEGIN
{
	@["b", 1] = count();
	@["a", 2] = count();
	@["a", -1] = count();
	@["a", 1] = count();
	@["b", 0] = count();
	exit(0);
}
