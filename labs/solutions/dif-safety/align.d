/* Task 7: an 8-byte load from an address that is not a multiple of 8. */
#pragma D option quiet

BEGIN
{
	x = *(long *)0x1004;
}

BEGIN
{
	printf("still here\n");
	exit(0);
}
