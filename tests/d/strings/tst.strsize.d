/*
 * ASSERTION: strsize limits every string value: longer strings are
 * truncated to strsize - 1 bytes; strjoin() may fill strsize - 1.
 */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	s = "abcdefghijklmnop";
	printf("[%s] %d\n", s, strlen(s));
	printf("[%s]\n", strjoin("123", "4567"));
	exit(0);
}
