/*
 * ASSERTION: lquantize(value, base, limit, step, increment) adds the
 * increment to the bucket; a negative increment makes the counts (and the
 * bars) negative.
 */
#pragma D option quiet

BEGIN
{
	@pos = lquantize(3, 0, 10, 1, 4);
	@pos = lquantize(5, 0, 10, 1, 12);
	@neg = lquantize(3, 0, 10, 1, -4);
	@neg = lquantize(5, 0, 10, 1, -12);
	exit(0);
}
