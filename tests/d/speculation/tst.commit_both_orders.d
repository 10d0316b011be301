/*
 * ASSERTION: committed speculations come out in the order of their
 * commits, not of their creation or recording.
 */
#pragma D option quiet
#pragma D option nspec=2

BEGIN
{
	a = speculation();
	b = speculation();
}

BEGIN
{
	speculate(a);
	printf("a\n");
}

BEGIN
{
	speculate(b);
	printf("b\n");
}

BEGIN
{
	commit(b);
}

BEGIN
{
	commit(a);
}

BEGIN
{
	exit(0);
}
