/*
 * ASSERTION: a second normalize() replaces the first normal (it does not
 * multiply with it), and normalize() of one aggregation leaves others
 * raw.
 */
#pragma D option quiet

BEGIN
{
	@a = sum(1000);
	@b = sum(1000);
	normalize(@a, 10);
	normalize(@a, 100);
	exit(0);
}
