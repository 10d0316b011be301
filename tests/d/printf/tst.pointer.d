/*
 * ASSERTION: %p prints a pointer-sized integer in hexadecimal with no
 * 0x prefix (DTrace converts it to %llx for a 64-bit argument).
 */
#pragma D option quiet

BEGIN
{
	printf("%p\n", (void *)0x1234abcd);
	printf("%p\n", 0xffffffff80000000);
	printf("[%20p]\n", (void *)0xbeef);
	exit(0);
}
