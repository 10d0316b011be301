/*
 * ASSERTION: a misaligned 4-byte load is an "invalid alignment" fault
 * naming the address (alignment is checked before the address).
 */
#pragma D option quiet

BEGIN
{
	x = *(int *)0x1001;
}

BEGIN
{
	printf("continued\n");
	exit(0);
}
