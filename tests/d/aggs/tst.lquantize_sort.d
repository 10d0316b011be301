/*
 * ASSERTION: lquantize() entries sort by the sum of bucket value x count
 * where the "< base" bucket weighs base - 1 (not base - step): "a-under"
 * (one value below 0: -1) sorts after "b-neg" (a count of -1 in bucket 5:
 * -5) although its key is smaller.
 */
#pragma D option quiet

BEGIN
{
	@l["a-under"] = lquantize(-100, 0, 10, 5);
	@l["b-neg"] = lquantize(5, 0, 10, 5, -1);
	exit(0);
}
