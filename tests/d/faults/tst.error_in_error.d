/*
 * ASSERTION: a fault inside an ERROR clause does not fire ERROR again:
 * it is counted (reported as "1 error in ERROR probe enabling"; stderr
 * is not compared because DTrace reports that count from its status
 * poll, before the buffer's own fault message) and tracing still goes
 * on.
 */
#pragma D option quiet

BEGIN
{
	x = *(int *)0;
}

ERROR
{
	y = *(int *)0;
}

BEGIN
{
	printf("continued\n");
	exit(0);
}
