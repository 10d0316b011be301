/*
 * ASSERTION: printa() of an aggregation without data prints only the
 * leading newline (no format) or nothing at all (with a format), and the
 * aggregation is not printed at exit.
 */
#pragma D option quiet

END
/0/
{
	@never = count();
}

BEGIN
{
	printf("[");
	printa(@never);
	printf("][");
	printa("%@d\n", @never);
	printf("]\n");
	exit(0);
}
