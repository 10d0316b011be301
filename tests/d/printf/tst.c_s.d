/*
 * ASSERTION: %c prints a character from an integer, %s a string; both
 * take width and (for %s) precision.  (A precision of 0 is in
 * tst.dtrace_quirks.d.)
 */
#pragma D option quiet

BEGIN
{
	printf("%c%c%c\n", 'D', 'T', 0x52);
	printf("[%3c] [%-3c]\n", 'x', 'y');
	printf("[%s] [%10s] [%-10s]\n", "abc", "abc", "abc");
	printf("[%.2s] [%8.3s] [%-8.3s]\n", "abcdef", "abcdef", "abcdef");
	printf("[%s]\n", "");
	exit(0);
}
