/*
 * ASSERTION: a fault in a clause of the ERROR probe is not reported
 * through ERROR again; it is counted: "N errors in ERROR probe enabling";
 * tracing goes on and the exit status is 0.
 */
#pragma D option quiet

BEGIN
{
	x = *(int *)0;
}

ERROR
{
	y = *(int *)8;
}

BEGIN
{
	exit(0);
}
