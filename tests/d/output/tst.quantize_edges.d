/*
 * ASSERTION: quantize() at the edges: negative values fill the buckets
 * -1, -2, -4 ...; the extremes land in the first and last buckets (labels
 * wider than the column push the bar right); a histogram with negative
 * counts only is drawn right-aligned ending in "|", one with both signs
 * around a centre "|" in half-width bars; one whose counts cancel prints
 * the rows -1, 0 and 1; counts that overflow wrap as 64-bit sums do;
 * counts near 2^62 still scale (two of 2^62: twenty @ each).
 */
#pragma D option quiet

BEGIN
{
	@neg = quantize(-1); @neg = quantize(0); @neg = quantize(-5);
	@ext = quantize(0x7fffffffffffffff);
	@ext = quantize(-0x7fffffffffffffff - 1);
	@mixed = quantize(1, -3); @mixed = quantize(4, 2);
	@negonly = quantize(3, -2); @negonly = quantize(100, -6);
	@cancel = quantize(7, 3); @cancel = quantize(7, -3);
	@wrap = quantize(5, 0x7fffffffffffffff);
	@wrap = quantize(6, 0x7fffffffffffffff);
	@huge = quantize(1, 0x4000000000000000);
	@huge = quantize(2, 0x4000000000000000);
	printa(@neg);
	printa(@ext);
	printa(@mixed);
	printa(@negonly);
	printa(@cancel);
	printa(@wrap);
	printa(@huge);
	exit(0);
}
