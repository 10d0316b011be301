/*
 * ASSERTION: quantize() buckets are powers of two on both sides of 0
 * (..., -4, -2, -1, 0, 1, 2, 4, ...): a positive value counts in the
 * largest power of two not above it (3 in 2, 7 in 4), a negative one in
 * the first bucket not below it (-3 in -2); zero rows between non-zero
 * buckets are all shown, plus one zero row at each end.
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(-3);
	@q = quantize(-1);
	@q = quantize(0);
	@q = quantize(1);
	@q = quantize(2);
	@q = quantize(3);
	@q = quantize(7);
	@q = quantize(8);
	exit(0);
}
