/*
 * ASSERTION: tuple keys print each member in turn; ties in value order
 * by the first member, then the next.
 */
#pragma D option quiet

BEGIN
{
	@t["b", 1] = count();
	@t["a", 2] = count();
	@t["a", 1] = count();
	@t["b", 0] = count();
	@t["b", 0] = count();
	exit(0);
}
