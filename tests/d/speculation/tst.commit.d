/*
 * ASSERTION: data recorded after speculate() appears only when the
 * speculation is committed, at the point of the commit: after the plain
 * output recorded between speculate() and commit().
 */
#pragma D option quiet

BEGIN
{
	printf("first\n");
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("speculative\n");
}

BEGIN
{
	printf("second\n");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("third\n");
	exit(0);
}
