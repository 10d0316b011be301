/*
 * ASSERTION: the status is the argument of the first exit(); a later
 * exit() from another probe firing before the consumer stops does not
 * change it (only END may).  The tick fires after BEGIN's exit(), so it
 * may or may not run; it prints nothing.
 * @@exit: 3
 */
#pragma D option quiet

BEGIN
{
	exit(3);
}

profile:::tick-1000
{
	exit(4);
}

END
{
	printf("end\n");
}
