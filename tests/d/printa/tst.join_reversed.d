/*
 * ASSERTION: the first aggregation of a joined printa() decides the
 * order: printa(fmt, @b, @a) sorts by @b's value first.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@a["y"] = count();
	@b["x"] = sum(50);
	@b["y"] = sum(5);
	printa("%s b=%@d a=%@d\n", @b, @a);
	printa("%s a=%@d b=%@d\n", @a, @b);
	exit(0);
}
