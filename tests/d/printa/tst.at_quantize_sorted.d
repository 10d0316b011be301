/*
 * ASSERTION: a printa() format over a keyed quantize() prints one
 * histogram per key, sorted by the histograms' weighted sums.
 */
#pragma D option quiet

BEGIN
{
	@q["big"] = quantize(1024);
	@q["small"] = quantize(2);
	@q["small"] = quantize(2);
	printa("== %s ==%@d\n", @q);
	exit(0);
}
