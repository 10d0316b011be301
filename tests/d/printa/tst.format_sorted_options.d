/*
 * ASSERTION: printa() with a format follows the sort options like the
 * default output: aggsortrev prints the largest value first.
 */
#pragma D option quiet
#pragma D option aggsortrev

BEGIN
{
	@a["x"] = sum(1);
	@a["y"] = sum(3);
	@a["z"] = sum(2);
	printa("%s %@d\n", @a);
	exit(0);
}
