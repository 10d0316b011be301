/*
 * ASSERTION: the flags -, +, space, # and 0 behave as in C's printf when
 * - comes after 0.  (- before 0 is in tst.dtrace_quirks.d.)
 */
#pragma D option quiet

BEGIN
{
	printf("[%-6d] [%6d] [%06d] [%0-6d]\n", 42, 42, 42, 42);
	printf("[%+d] [%+d] [% d] [% d] [%+ d]\n", 5, -5, 5, -5, 5);
	printf("[%#o] [%#x] [%#X] [%#o] [%#x]\n", 8, 255, 255, 0, 0);
	printf("[%08x] [%#010x] [%-#8x]\n", 0xbeef, 0xbeef, 0xbeef);
	printf("[%+06d] [%-+6d] [% 05d]\n", 42, 42, -42);
	exit(0);
}
