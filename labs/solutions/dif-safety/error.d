/*
 * Task 8: the ERROR probe sees the fault: arg4 is the fault code
 * (DTRACEFLT_BADADDR, 1) and arg5 the address.
 */
#pragma D option quiet

BEGIN
{
	x = *(char *)0x1234;
}

ERROR
{
	printf("fault %d at 0x%x\n", arg4, arg5);
	exit(0);
}
