/*
 * ASSERTION: data recorded under a speculation that is discarded never
 * appears.
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("never printed\n");
}

BEGIN
{
	discard(s);
}

BEGIN
{
	printf("discarded\n");
}

BEGIN
{
	exit(0);
}
