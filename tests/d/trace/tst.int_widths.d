/*
 * ASSERTION: trace() of each integer width, not quiet, with the sign of
 * its type, as libdtrace prints it: signed in " %3d", " %5d", " %10d",
 * " %19lld", unsigned in " %3u", " %5u", " %10u", " %20llu" by size.
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
