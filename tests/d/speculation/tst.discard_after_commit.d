/*
 * ASSERTION: discard() after commit() of the same speculation does not
 * take the committed data back.
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("committed\n");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	discard(s);
}

BEGIN
{
	exit(0);
}
