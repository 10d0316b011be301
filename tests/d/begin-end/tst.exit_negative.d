/*
 * ASSERTION: exit(-1) ends the run with status 255 (the int goes to
 * exit(2), which keeps the low byte); statuses above 111 come back from
 * the guest as 111 (see tools/dtrace), so 111 is expected.  It must not
 * be reported as a crash.
 * @@exit: 111
 */
#pragma D option quiet

BEGIN
{
	printf("exiting\n");
	exit(-1);
}
