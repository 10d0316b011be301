/*
 * ASSERTION: an lquantize() histogram with counts of both signs draws the
 * 20 + 20 column bars around a centre "|", like quantize().
 */
#pragma D option quiet

BEGIN
{
	@l = lquantize(1, 0, 4, 1, 3);
	@l = lquantize(2, 0, 4, 1, -1);
	exit(0);
}
