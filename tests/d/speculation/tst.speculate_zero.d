/*
 * ASSERTION: speculate(0) (the id of a failed speculation()) records
 * nothing: the clause's data is dropped, not printed.
 */
#pragma D option quiet
#pragma D option nspec=1

BEGIN
{
	a = speculation();
	z = speculation();
}

BEGIN
{
	speculate(z);
	printf("not printed\n");
}

BEGIN
{
	printf("z=%d\n", z);
	exit(0);
}
