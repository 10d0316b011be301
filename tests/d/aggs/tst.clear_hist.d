/*
 * ASSERTION: a cleared histogram keeps its entry and prints the rows
 * around the origin with zero counts: quantize -1, 0, 1; lquantize
 * "< base", base, base + step; llquantize "< factor^low", factor^low.
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(100);
	@l = lquantize(5, 0, 10, 2);
	@ll = llquantize(500, 10, 0, 4, 10);
	clear(@q);
	clear(@l);
	clear(@ll);
	exit(0);
}
