/*
 * ASSERTION: a fault in BEGIN fires ERROR immediately (between the
 * faulting clause and the next clause); what the faulting clause had
 * recorded is discarded ("begin 1" is not printed); tracing continues
 * with the next BEGIN clause and later END.  The fault is reported on
 * stderr.
 */
#pragma D option quiet

BEGIN
{
	printf("begin 1\n");
	x = *(int *)0;
	printf("not reached\n");
}

ERROR
{
	printf("error\n");
}

BEGIN
{
	printf("begin 2\n");
	exit(0);
}

END
{
	printf("end\n");
}
