/*
 * ASSERTION: the actions after exit() in the same clause still run:
 * exit() records the status, it does not abort the clause.
 */
#pragma D option quiet

BEGIN
{
	printf("before\n");
	exit(0);
	printf("after\n");
}
