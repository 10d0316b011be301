/*
 * ASSERTION: llquantize(value, 2, 0, 2, 4): buckets 1 | 2 3 | 4 6 (the
 * step is 1 until factor^(order+1) exceeds the steps, then
 * factor^(order+1)/steps), with "< 1" and ">= 8" at the ends; rows run
 * from one zero row before the first non-zero bucket to one after.
 */
#pragma D option quiet

BEGIN
{
	@l = llquantize(3, 2, 0, 2, 4);
	@l = llquantize(6, 2, 0, 2, 4);
	@l = llquantize(7, 2, 0, 2, 4);
	exit(0);
}
