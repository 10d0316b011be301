/*
 * ASSERTION: printa() with a format and aggsortkey prints in key order.
 */
#pragma D option quiet
#pragma D option aggsortkey

BEGIN
{
	@a[3] = sum(1);
	@a[1] = sum(3);
	@a[2] = sum(2);
	printa("%d %@d\n", @a);
	exit(0);
}
