/*
 * ASSERTION: -x strsize=5 limits strings to 4 bytes, in variables and
 * in traced values.
 * @@options: -x strsize=5
 */
#pragma D option quiet

BEGIN
{
	s = "abcdefgh";
	printf("[%s]\n", s);
	trace("12345678");
	trace("\n");
	exit(0);
}
