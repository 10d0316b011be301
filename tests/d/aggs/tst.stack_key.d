/*
 * ASSERTION: stack() can be an aggregation key: the same kernel stack,
 * recorded twice from one clause, is one entry with a count of 2 (printed
 * without the stack itself, whose addresses change with the build).
 */
#pragma D option quiet

BEGIN
{
	@s[stack()] = count();
	@s[stack()] = count();
	printa("%@d entry\n", @s);
	exit(0);
}
