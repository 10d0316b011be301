/*
 * ASSERTION: lquantize() values below the base count in the "< base" row
 * and values at or past the limit in ">= limit"; when only the underflow
 * bucket has data the rows are "< base" and the base, when only the
 * overflow bucket has data they are the last bucket and ">= limit".
 */
#pragma D option quiet

BEGIN
{
	@under = lquantize(-10, 0, 100, 10);
	@over = lquantize(100, 0, 100, 10);
	@over = lquantize(5000, 0, 100, 10);
	exit(0);
}
