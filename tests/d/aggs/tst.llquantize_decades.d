/*
 * ASSERTION: llquantize(value, 10, 0, 2, 10) has the buckets 1..9,
 * 10..90 by 10 and 100..900 by 100, "< 1" below and ">= 1000" above;
 * 0 counts in "< 1", 55 in 50, 550 in 500 and 5500 in ">= 1000".
 */
#pragma D option quiet

BEGIN
{
	@l = llquantize(0, 10, 0, 2, 10);
	@l = llquantize(5, 10, 0, 2, 10);
	@l = llquantize(55, 10, 0, 2, 10);
	@l = llquantize(550, 10, 0, 2, 10);
	@l = llquantize(5500, 10, 0, 2, 10);
	exit(0);
}
