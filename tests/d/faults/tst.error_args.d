/*
 * ASSERTION: the ERROR probe's arguments: arg1 the enabled probe id of
 * the faulting clause, arg2 the action index (1-based), arg4 the fault
 * code (DTRACEFLT_BADADDR 1), arg5 the faulting address.
 */
#pragma D option quiet

BEGIN
{
	printf("clause 1\n");
}

BEGIN
{
	a = 1;
	b = 2;
	c = *(char *)0x10;
}

ERROR
{
	printf("arg1=%d arg2=%d arg4=%d arg5=0x%x\n", arg1, arg2, arg4, arg5);
}

BEGIN
{
	exit(0);
}
