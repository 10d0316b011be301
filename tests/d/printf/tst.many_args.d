/*
 * ASSERTION: printf with many arguments of mixed types keeps them in
 * order.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %s %x %c %u %s %o %d %s %d\n", 1, "two", 3, '4', 5, "six", 7,
	    (char)8, "nine", 10LL);
	exit(0);
}
