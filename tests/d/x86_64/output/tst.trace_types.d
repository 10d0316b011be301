/*
 * ASSERTION: trace() prints by the type of its argument, as libdtrace
 * does: integers in " %3d", " %5d", " %10d", " %19lld" when signed and
 * " %3u", " %5u", " %10u", " %20llu" when unsigned (so (int16_t)-1 is -1
 * and the largest uint64_t is 18446744073709551615), char as a number,
 * pointers unsigned, strings in "  %-33s", char arrays as text, structs as
 * a dump of their bytes; an empty clause prints only the probe's line.
 */
struct pair {
	int p_a;
	char p_b;
	long p_c;
};

struct pair p;
char name[8];

BEGIN
{
	trace((int8_t)-1); trace((uint8_t)255); trace((int16_t)-1);
	trace((uint16_t)65535); trace((int32_t)-2147483648);
	trace((uint32_t)4294967295); trace((int64_t)-1);
	trace(18446744073709551615ULL);
}

BEGIN
{
	trace((char)65); trace(0); trace(-1LL); trace((void *)16);
	trace("str");
}

BEGIN
{
	name[0] = 'o'; name[1] = 'k';
	trace(name);
}

BEGIN
{
	p.p_a = 1; p.p_b = 2; p.p_c = -1;
	trace(p);
}

BEGIN
{
}

BEGIN
{
	exit(0);
}
