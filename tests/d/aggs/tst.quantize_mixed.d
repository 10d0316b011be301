/*
 * ASSERTION: with both positive and negative bucket counts the bar is
 * 20 + 20 columns around a centre "|": negative counts grow left of it,
 * positive counts right of it, each scaled to 20 columns of the total
 * of the magnitudes.
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(1, -2);
	@q = quantize(4, 1);
	@q = quantize(16, 1);
	exit(0);
}
