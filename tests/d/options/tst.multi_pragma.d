/*
 * ASSERTION: several option pragmas combine; a later one for the same
 * option wins (strsize 4, then 6).
 */
#pragma D option quiet
#pragma D option strsize=4
#pragma D option strsize=6

BEGIN
{
	s = "abcdefgh";
	printf("[%s]\n", s);
	exit(0);
}
