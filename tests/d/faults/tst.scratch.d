/*
 * ASSERTION: alloca() of more than the scratch space is an "out of
 * scratch space" fault (ERROR's arg4 is DTRACEFLT_NOSCRATCH, 5), with no
 * address in the message.
 */
#pragma D option quiet

BEGIN
{
	p = alloca(100000000);
	printf("must not print\n");
}

ERROR
{
	printf("fault %d\n", arg4);
}

BEGIN
{
	exit(0);
}
