/*
 * ASSERTION: the aggzoom option scales histogram bars to the largest
 * bucket instead of the total: the fullest row gets all 40 columns (here
 * 30 of 40 before, 40 after; 1 of 4 samples 10, then 13), for quantize,
 * lquantize and a negative-only histogram; setopt() turns it on while
 * tracing, and the counts do not change.
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(1);
	@q = quantize(8);
	@q = quantize(8);
	@q = quantize(8);
	@l = lquantize(3, 0, 10, 5);
	@l = lquantize(7, 0, 10, 5);
	@l = lquantize(7, 0, 10, 5);
	@neg = quantize(2, -3);
	@neg = quantize(4, -1);
	printa(@q);
	printa(@l);
	printa(@neg);
	setopt("aggzoom");
	printf("\nzoomed:\n");
	printa(@q);
	printa(@l);
	printa(@neg);
	exit(0);
}
