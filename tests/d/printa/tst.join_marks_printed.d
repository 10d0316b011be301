/*
 * ASSERTION: every aggregation named in a joined printa() counts as
 * printed: neither is printed again at exit.
 */
#pragma D option quiet

BEGIN
{
	@a["k"] = sum(1);
	@b["k"] = sum(2);
	@c["k"] = sum(3);
	printa("%s %@d %@d\n", @a, @b);
	exit(0);
}
