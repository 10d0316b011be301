/*
 * ASSERTION: strlen() of literals, variables and the empty string.
 */
#pragma D option quiet

BEGIN
{
	s = "hello, world";
	printf("%d %d %d %d\n", strlen("abc"), strlen(""), strlen(s),
	    strlen(probename));
	exit(0);
}
