/*
 * ASSERTION: trace() of each integer width, not quiet: 1-byte values in
 * " %3d" and 2-byte in " %5d" as unsigned, 4-byte in " %8d" and 8-byte
 * in " %16lld" as signed.
 */
BEGIN
{
	trace((char)-1);
	trace((uint8_t)200);
	trace((short)-1);
	trace((uint16_t)40000);
	trace((int)-1);
	trace((uint32_t)4000000000);
	trace((long)-1);
	trace((uint64_t)18446744073709551615);
	trace(0);
	trace(123456789012LL);
	exit(0);
}
