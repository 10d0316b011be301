/*
 * ASSERTION: several failed speculation() calls are reported together,
 * with the plural "failed speculations".
 */
#pragma D option quiet
#pragma D option nspec=1

BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	d = speculation();
	printf("%d %d %d\n", b, c, d);
	exit(0);
}
