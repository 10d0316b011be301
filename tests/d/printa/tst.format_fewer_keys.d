/*
 * ASSERTION: a printa() format may use fewer conversions than there are
 * key members: the remaining members are simply not printed, and entries
 * that look alike are still separate lines.
 */
#pragma D option quiet

BEGIN
{
	@a["x", 1] = sum(1);
	@a["x", 2] = sum(2);
	printa("%s %@d\n", @a);
	printa("%@d\n", @a);
	exit(0);
}
