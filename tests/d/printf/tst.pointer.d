/*
 * ASSERTION: %p prints a pointer-sized integer in hexadecimal with a
 * 0x prefix.
 */
#pragma D option quiet

BEGIN
{
	printf("%p\n", (void *)0x1234abcd);
	printf("%p\n", 0xffffffff80000000);
	exit(0);
}
