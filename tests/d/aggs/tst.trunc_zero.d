/*
 * ASSERTION: trunc(@, 0) removes every entry, like trunc(@); nothing is
 * printed for the aggregation at exit.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@b["kept"] = count();
	trunc(@a, 0);
	exit(0);
}
