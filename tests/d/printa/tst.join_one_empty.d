/*
 * ASSERTION: a joined printa() with an aggregation that never got data
 * prints 0 for it on every line.
 */
#pragma D option quiet

END
/0/
{
	@b["x"] = sum(1);
}

BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@a["y"] = count();
	printa("%s %@d %@d\n", @a, @b);
	exit(0);
}
