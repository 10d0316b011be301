/*
 * ASSERTION: several clauses may speculate into the same speculation; a
 * commit brings all of their data out, in the order it was recorded.
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("one\n");
}

BEGIN
{
	speculate(s);
	printf("two %d\n", 2);
}

BEGIN
{
	speculate(s);
	trace("three\n");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
