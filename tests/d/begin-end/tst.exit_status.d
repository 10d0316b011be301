/*
 * ASSERTION: dtrace exits with the status given to exit().
 * @@exit: 7
 */
#pragma D option quiet

BEGIN
{
	exit(7);
}
