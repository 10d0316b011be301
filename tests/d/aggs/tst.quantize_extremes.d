/*
 * ASSERTION: quantize() of the INT64 extremes lands in the outermost
 * buckets, -4611686018427387904 and 4611686018427387904, and the rows
 * are clamped to the bucket range (no zero row beyond either end).
 */
#pragma D option quiet

BEGIN
{
	@q = quantize((long long)0x8000000000000000);
	@q = quantize(0x7fffffffffffffff);
	@q = quantize(0x7fffffffffffffff);
	exit(0);
}
