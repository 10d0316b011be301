/*
 * ASSERTION: llquantize(value, factor, low, high, steps, increment) adds
 * the increment to the bucket.
 */
#pragma D option quiet

BEGIN
{
	@l = llquantize(3, 2, 0, 2, 4, 5);
	@l = llquantize(6, 2, 0, 2, 4, 15);
	exit(0);
}
