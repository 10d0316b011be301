/*
 * ASSERTION: trunc() with a count larger than the number of entries
 * (positive or negative) keeps them all.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = sum(3);
	@a["y"] = sum(1);
	@a["z"] = sum(2);
	@b["x"] = sum(3);
	@b["y"] = sum(1);
	trunc(@a, 10);
	trunc(@b, -10);
	exit(0);
}
