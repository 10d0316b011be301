/*
 * ASSERTION: printa() may print the same aggregation more than once.  The
 * consumer prints what the aggregation holds when it processes the
 * printa() record, after the whole clause ran: both show 11.
 */
#pragma D option quiet

BEGIN
{
	@a = sum(1);
	printa(@a);
	@a = sum(10);
	printa(@a);
	exit(0);
}
