/*
 * ASSERTION: printa() with a format prints each entry through it: plain
 * conversions take key members, %@d the value; no leading newline.
 */
#pragma D option quiet

BEGIN
{
	@a["x", 1] = sum(10);
	@a["y", 2] = sum(5);
	printa("%s/%d=%@d\n", @a);
	exit(0);
}
