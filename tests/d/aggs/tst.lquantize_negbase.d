/*
 * ASSERTION: lquantize() with a negative base: a value v counts in
 * base + step * floor((v - base) / step) (-6 in -10, 9 in 5), and the
 * labels run from "< -10" to ">= 10".
 */
#pragma D option quiet

BEGIN
{
	@l = lquantize(-10, -10, 10, 5);
	@l = lquantize(-6, -10, 10, 5);
	@l = lquantize(0, -10, 10, 5);
	@l = lquantize(9, -10, 10, 5);
	@l = lquantize(-11, -10, 10, 5);
	exit(0);
}
