/*
 * ASSERTION: %u, %o, %x and %X print the argument unsigned in its own
 * width: (int)-1 is 4294967295 with %u and ffffffff with %x, a 64-bit
 * -1 is all ones.
 */
#pragma D option quiet

BEGIN
{
	printf("%u %u %u\n", 0, 3000000000, (int)-1);
	printf("%u\n", -1LL);
	printf("%o %o %o\n", 8, 0755, (char)-1);
	printf("%x %X %x\n", 255, 0xabcdef, (short)-1);
	printf("%x\n", (int)-1);
	printf("%X\n", -1LL);
	printf("%lu %llx\n", (unsigned long)7, 0xdeadbeefcafeLL);
	exit(0);
}
