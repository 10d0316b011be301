/*
 * ASSERTION: the ERROR probe's arg4 is the fault code: 1 invalid
 * address, 2 invalid alignment, 4 divide-by-zero; arg5 is the address
 * for the first two (DTrace leaves it stale for a divide-by-zero, so it
 * is not printed then).
 */
#pragma D option quiet

int z;

BEGIN { x = *(int *)0; }
BEGIN { x = *(short *)3; }
BEGIN { x = 1 / z; }

ERROR
/arg4 != 4/
{
	printf("fault %d at 0x%x\n", arg4, arg5);
}

ERROR
/arg4 == 4/
{
	printf("fault %d\n", arg4);
}

BEGIN
{
	exit(0);
}
