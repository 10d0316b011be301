/*
 * ASSERTION: lquantize(value, 0, 10, 2): linear buckets; values below
 * the base count in "< 0", values at or past the limit in ">= 10".
 */
#pragma D option quiet

BEGIN
{
	@l = lquantize(-1, 0, 10, 2);
	@l = lquantize(3, 0, 10, 2);
	@l = lquantize(3, 0, 10, 2);
	@l = lquantize(5, 0, 10, 2);
	@l = lquantize(12, 0, 10, 2);
	exit(0);
}
