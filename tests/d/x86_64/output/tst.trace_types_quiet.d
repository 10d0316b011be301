/*
 * ASSERTION: quiet trace() prints integers with the sign of their type and
 * no padding, strings and char arrays as they are, structs as byte dumps.
 */
#pragma D option quiet

struct three {
	short t_a;
	short t_b;
	short t_c;
};

struct three t;

BEGIN
{
	trace((char)-1); trace(","); trace((uint8_t)-1); trace(",");
	trace((short)-300); trace(","); trace((unsigned short)-300); trace(",");
	trace(-7); trace(","); trace(7U - 8); trace(",");
	trace(-9223372036854775807LL - 1); trace(",");
	trace(9223372036854775808ULL); trace("\n");
	t.t_a = 1; t.t_b = -1; t.t_c = 0x4142;
	trace(t);
	trace("|\n");
	exit(0);
}
