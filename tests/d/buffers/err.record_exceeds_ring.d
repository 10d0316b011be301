/*
 * ASSERTION: the ring policy is no exception: a record bigger than the
 * whole principal buffer cannot be traced even by overwriting, so DTrace
 * refuses to enable ("Enabling exceeds size of buffer"), in quiet mode
 * without the matched notice; status 1.
 */
#pragma D option quiet
#pragma D option bufpolicy=ring
#pragma D option bufsize=32

BEGIN
{
	printf("%d %d %d %d %d\n", 1, 2, 3, 4, 5);
}

BEGIN
{
	exit(0);
}
