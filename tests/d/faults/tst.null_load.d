/*
 * ASSERTION: a load from address 0 is an "invalid address (0x0)" fault,
 * reported on stderr; the faulting clause records nothing and the other
 * clauses of the firing, and END, still run.
 */
#pragma D option quiet

BEGIN
{
	printf("before\n");
}

BEGIN
{
	printf("discarded\n");
	trace(*(int *)0);
}

BEGIN
{
	printf("after\n");
	exit(0);
}

END
{
	printf("end\n");
}
