/*
 * ASSERTION: when the step does not divide limit - base, lquantize() has
 * (limit - base) / step buckets and its last row is ">= base + levels *
 * step": lquantize(v, 0, 10, 3) has buckets 0, 3, 6 and ">= 9", so 9
 * counts as overflow.
 */
#pragma D option quiet

BEGIN
{
	@l = lquantize(2, 0, 10, 3);
	@l = lquantize(6, 0, 10, 3);
	@l = lquantize(9, 0, 10, 3);
	exit(0);
}
