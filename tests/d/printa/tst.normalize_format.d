/*
 * ASSERTION: normalize() divides what %@d prints in a printa() format,
 * and the default printa() output, but never the keys.
 */
#pragma D option quiet

BEGIN
{
	@a[1000] = sum(5000);
	@a[2000] = sum(900);
	normalize(@a, 100);
	printa("%d %@d\n", @a);
	printa(@a);
	exit(0);
}
