/*
 * ASSERTION: by default entries sort by value, ties by key: count, sum,
 * min and max as signed 64-bit numbers, avg by its integer average,
 * stddev by its value, quantize and lquantize by the sum of bucket value
 * times count (lquantize's end rows weigh base - 1 and limit + 1), equal
 * sums by the count in a bucket starting at exactly 0 (none: a tie, so by
 * key).  A format without %@ prints the keys only.
 */
#pragma D option quiet

BEGIN
{
	@sum["neg"] = sum(-10); @sum["pos"] = sum(10); @sum["zero"] = sum(0);
	@avg["a"] = avg(10); @avg["a"] = avg(20); @avg["b"] = avg(14);
	@avg["c"] = avg(-1);
	@sd["flat"] = stddev(5); @sd["flat"] = stddev(5);
	@sd["wide"] = stddev(0); @sd["wide"] = stddev(100);
	@q["big"] = quantize(1000); @q["small"] = quantize(1);
	@q["zero"] = quantize(0); @q["neg"] = quantize(-1);
	@l["under"] = lquantize(-50, 0, 10, 1); @l["over"] = lquantize(50, 0, 10, 1);
	@l["mid"] = lquantize(5, 0, 10, 1);
	@lz["b"] = lquantize(-5, -5, 7, 3); @lz["b"] = lquantize(1, -5, 7, 3);
	@lz["a"] = lquantize(-1, -5, 7, 3); @lz["a"] = lquantize(0, -5, 7, 3);
	@t["z2"] = quantize(0); @t["z2"] = quantize(0); @t["z1"] = quantize(0);
	printa("%s %@d\n", @sum);
	printa("%s %@d\n", @avg);
	printa("%s %@d\n", @sd);
	printa("%s\n", @q);
	printa("%s\n", @l);
	printa("%s\n", @t);
	printa("%s\n", @lz);
	exit(0);
}
