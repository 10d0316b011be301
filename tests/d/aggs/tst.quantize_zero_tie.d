/*
 * ASSERTION: histograms with equal weighted sums are ordered by their
 * count in the zero bucket before falling back to the key: "a" has two
 * zeros, "b" one, so "b" prints first.
 */
#pragma D option quiet

BEGIN
{
	@q["a"] = quantize(0);
	@q["a"] = quantize(0);
	@q["b"] = quantize(0);
	exit(0);
}
