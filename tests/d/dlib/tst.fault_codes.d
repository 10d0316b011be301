/*
 * ASSERTION: the ERROR probe's arg4 is one of the D library's DTRACEFLT_*
 * codes: a load through NULL is DTRACEFLT_BADADDR, a division by a zero
 * variable DTRACEFLT_DIVZERO.
 */
#pragma D option quiet

BEGIN
{
	trace(*(int *)NULL);
}

BEGIN
{
	z = 0;
	trace(1 / z);
}

ERROR
{
	printf("%d %d\n", arg4 == DTRACEFLT_BADADDR, arg4 == DTRACEFLT_DIVZERO);
	n++;
}

BEGIN
{
	exit(0);
}

END
{
	printf("errors %d\n", n);
}
