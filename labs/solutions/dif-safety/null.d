/*
 * Task 5: a load from address 0 faults; the clause stops, DTrace reports
 * the fault, and the next clause of the same probe still runs.
 */
#pragma D option quiet

BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	printf("still here\n");
	exit(0);
}
