/*
 * ASSERTION: %d and %i of an unsigned argument print it unsigned (DTrace
 * turns the conversion into %u when the argument's type is unsigned),
 * in every width.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %i\n", (uint64_t)-1, (uint64_t)-2);
	printf("%d\n", 0xffffffffffffffff);
	printf("%d %d %d\n", (uint32_t)4294967295, (uint16_t)65535, (uint8_t)255);
	printf("%5d|%-5d|\n", (uint8_t)200, (uint16_t)300);
	exit(0);
}
