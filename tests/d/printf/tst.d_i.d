/*
 * ASSERTION: %d and %i print signed decimal of every argument width;
 * a value is truncated to its argument's type first.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %i\n", 42, -42);
	printf("%d\n", (char)0x1234567890abcdef);
	printf("%d\n", (short)0x1234567890abcdef);
	printf("%d\n", (int)0x1234567890abcdef);
	printf("%d\n", (long long)0x1234567890abcdef);
	printf("%d\n", (unsigned char)0xff);
	printf("%d\n", (unsigned short)0xffff);
	printf("%d %i\n", -9223372036854775807LL - 1, 9223372036854775807LL);
	printf("%ld %lld %hd\n", 1L, 2LL, (short)3);
	exit(0);
}
