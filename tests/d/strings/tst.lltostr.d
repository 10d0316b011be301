/*
 * ASSERTION: lltostr() converts a 64-bit integer to its decimal string.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s] [%s]\n", lltostr(0), lltostr(12345), lltostr(-42));
	printf("[%s]\n", lltostr(9223372036854775807LL));
	printf("[%s]\n", lltostr(-9223372036854775807LL - 1));
	printf("%d\n", strlen(lltostr(1000000)));
	exit(0);
}
