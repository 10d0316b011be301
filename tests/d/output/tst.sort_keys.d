/*
 * ASSERTION: with aggsortkey, entries sort by key, each member compared
 * as libdtrace compares records: integers of every size as unsigned (so
 * (char)-1 sorts last and prints 255, (short)-2 prints 65534), 4- and
 * 8-byte integers printed signed, strings bytewise with the empty string
 * (printed as a dump of its bytes) first, tuples member by member.
 */
#pragma D option quiet
#pragma D option aggsortkey
#pragma D option strsize=16

BEGIN
{
	@c[(char)-1] = count(); @c[(char)1] = count(); @c[(char)97] = count();
	@s[(short)-2] = sum(1); @s[(short)3] = sum(1);
	@i[-5] = max(1); @i[4] = max(1);
	@u[(uint64_t)-1] = min(1); @u[0ULL] = min(1);
	@str["b"] = count(); @str["ab"] = count(); @str[""] = count();
	@t[1, "b"] = count(); @t[1, "a"] = count(); @t[0, "z"] = count();
	exit(0);
}
