/*
 * ASSERTION: lquantize(value, base, limit) without a step uses step 1:
 * one bucket per integer, with "< base" and ">= limit" rows at the ends.
 */
#pragma D option quiet

BEGIN
{
	@l = lquantize(0, 0, 5);
	@l = lquantize(2, 0, 5);
	@l = lquantize(2, 0, 5);
	@l = lquantize(4, 0, 5);
	exit(0);
}
