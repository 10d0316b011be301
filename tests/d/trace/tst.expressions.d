/*
 * ASSERTION: trace() records the value of an expression, with D's
 * integer promotion and C's arithmetic (int arithmetic is 32-bit,
 * a long long operand makes it 64-bit).
 */
#pragma D option quiet

BEGIN
{
	trace(2 + 3 * 4); trace(" ");
	trace(-7 / 2); trace(" ");
	trace(-7 % 3); trace(" ");
	trace(1 << 31); trace(" ");
	trace(1LL << 40); trace(" ");
	trace(0xff & ~0x0f); trace(" ");
	trace(5 ^ 3); trace(" ");
	trace(10 > 3 ? 100 : 200); trace(" ");
	trace(!0); trace(" ");
	trace(1 && 0 || 1); trace(" ");
	trace(1 ^^ 1); trace(" ");
	trace(sizeof (long)); trace("\n");
	exit(0);
}
