/*
 * ASSERTION: printa(@a) prints a newline and then the entries as the
 * default output does; @a is then not printed again at exit while @b,
 * never printed, is.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@a["y"] = count();
	@b["z"] = sum(9);
	printf("before");
	printa(@a);
	printf("after\n");
	exit(0);
}
