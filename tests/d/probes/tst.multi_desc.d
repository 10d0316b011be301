/*
 * ASSERTION: one clause with a list of descriptions fires for each;
 * probename tells them apart.
 */
#pragma D option quiet

BEGIN, END
{
	printf("%s\n", probename);
}

BEGIN
{
	exit(0);
}
