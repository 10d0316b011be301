/*
 * ASSERTION: integer division by a zero variable is a "divide-by-zero"
 * fault (no address in the message); so is the remainder.
 */
#pragma D option quiet

BEGIN
{
	zero = 0;
	x = 10 / zero;
}

BEGIN
{
	y = 10 % zero;
}

BEGIN
{
	printf("continued\n");
	exit(0);
}
