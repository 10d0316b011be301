/*
 * ASSERTION: exit() may be called from the ERROR probe; its status is
 * the run's and the BEGIN clauses after the fault are skipped, END runs.
 * @@exit: 6
 */
#pragma D option quiet

BEGIN
{
	x = *(int *)0;
}

ERROR
{
	printf("error\n");
	exit(6);
}

BEGIN
{
	printf("must not print\n");
}

END
{
	printf("end\n");
}
