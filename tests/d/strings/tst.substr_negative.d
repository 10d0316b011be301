/*
 * ASSERTION: substr() with negative lengths and with negative indexes
 * before the start: a negative length counts back from the end; an
 * index before the start eats into the length, and if nothing of the
 * range is left the result is "".
 */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s]\n", substr("hello", 1, -1), substr("hello", -3, -1));
	printf("[%s] [%s]\n", substr("hello", -10, 8), substr("hello", -7, 3));
	printf("[%s] [%s]\n", substr("hello", -10, 3), substr("hello", 2, -10));
	exit(0);
}
