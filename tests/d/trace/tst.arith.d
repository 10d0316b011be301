/*
 * ASSERTION: 64-bit arithmetic: signed and unsigned division, arithmetic
 * right shift of negatives, C's usual conversions in comparisons, and
 * results truncated to their type's width when recorded.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %u\n", -7LL / 2, -7LL % 2, (uint64_t)-1 / 2);
	printf("%d %u\n", -16 >> 2, (uint32_t)0x80000000 >> 31);
	printf("%d %d %d\n", (uint64_t)-1 > 0, -1 < 0U, -1 < 0);
	printf("%d %d %d\n", (char)300, (uint8_t)-1, (short)70000);
	printf("%d %d\n", 0x7fffffffffffffff + 1 < 0, (int)2147483647 + 1);
	printf("%d %d\n", 7 / -2, 1LL << 63);
	exit(0);
}
