/*
 * ASSERTION: quiet trace() of each integer width: no padding and no
 * separators; each value with the size and sign of its type.
 */
#pragma D option quiet

BEGIN
{
	trace((char)-1); trace(",");
	trace((int8_t)-128); trace(",");
	trace((short)-2); trace(",");
	trace((int)-3); trace(",");
	trace((uint32_t)4294967295); trace(",");
	trace((long long)-4); trace(",");
	trace(9223372036854775807LL); trace(",");
	trace((uint64_t)9223372036854775808); trace("\n");
	exit(0);
}
