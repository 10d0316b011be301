/*
 * ASSERTION: speculation() hands out the ids 1 to nspec in order on a
 * fresh enabling.
 */
#pragma D option quiet
#pragma D option nspec=3

BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	printf("%d %d %d\n", a, b, c);
	exit(0);
}
