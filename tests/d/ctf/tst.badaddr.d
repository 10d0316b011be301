/*
 * ASSERTION: a member read through a bad kernel pointer is DTrace's
 * invalid-address error for that clause (an ERROR, never a fault of the
 * kernel); the next clause still runs.  (No .err golden: the message names
 * a DIF offset, which depends on the code generator.)
 */
#pragma D option quiet

BEGIN
{
	trace(((struct thread *)8)->t_tid);
}

BEGIN
{
	printf("after the bad load\n");
	exit(0);
}
