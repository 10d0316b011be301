/*
 * ASSERTION: the default nspec is 1: while one speculation is active a
 * second speculation() returns 0.
 */
#pragma D option quiet

BEGIN
{
	a = speculation();
	b = speculation();
	printf("%d %d\n", a, b);
	exit(0);
}
