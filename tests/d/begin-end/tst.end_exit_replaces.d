/*
 * ASSERTION: an exit() in END replaces the status of the exit() that
 * ended tracing.
 * @@exit: 5
 */
#pragma D option quiet

BEGIN
{
	exit(2);
}

END
{
	printf("end\n");
	exit(5);
}
