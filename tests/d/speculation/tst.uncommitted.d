/*
 * ASSERTION: a speculation neither committed nor discarded when tracing
 * stops is never printed.
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("lost\n");
}

BEGIN
{
	printf("kept\n");
	exit(0);
}
