/*
 * ASSERTION: two speculations are independent: committing one and
 * discarding the other prints only the committed one's data, whatever the
 * order of the commit and the discard (nspec=2 so that both exist).
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
	printf("from a\n");
}

BEGIN
{
	speculate(b);
	printf("from b\n");
}

BEGIN
{
	discard(a);
}

BEGIN
{
	commit(b);
}

BEGIN
{
	printf("ids differ: %d\n", a != b);
	exit(0);
}
