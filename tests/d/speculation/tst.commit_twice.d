/*
 * ASSERTION: committing a speculation twice prints its data once.
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("once\n");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
