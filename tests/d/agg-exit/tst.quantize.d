/*
 * ASSERTION: quantize() of 0, 64 and 64: the power-of-two buckets from
 * one below the first non-zero to one past the last, bars of @ scaled to
 * 40 columns.
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(0);
	@q = quantize(64);
	@q = quantize(64);
	exit(0);
}
