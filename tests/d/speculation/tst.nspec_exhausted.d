/*
 * ASSERTION: with nspec=2, a third speculation() while two are active
 * returns 0 and the failure is reported on standard error as a failed
 * speculation with no speculative buffer available.
 */
#pragma D option quiet
#pragma D option nspec=2

BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	printf("%d %d %d\n", a != 0, b != 0, c);
	exit(0);
}
