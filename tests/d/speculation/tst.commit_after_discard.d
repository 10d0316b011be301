/*
 * ASSERTION: commit() after discard() of the same speculation prints
 * nothing: the data is gone.
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("discarded\n");
}

BEGIN
{
	discard(s);
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("end\n");
	exit(0);
}
