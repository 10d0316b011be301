/*
 * ASSERTION: quantize(value, increment) adds the increment to the bucket
 * instead of 1; an increment of 0 leaves the bucket as it was.
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(5, 3);
	@q = quantize(5, 2);
	@q = quantize(100, 5);
	@q = quantize(1000, 0);
	exit(0);
}
