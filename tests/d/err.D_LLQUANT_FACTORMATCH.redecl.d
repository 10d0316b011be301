/*
 * Asserts D_LLQUANT_FACTORMATCH: llquantize's factor must match the earlier
 * use of the aggregation.
 */
BEGIN
{
	@a = llquantize(1, 10, 0, 6, 100);
	@a = llquantize(1, 100, 0, 6, 100);
}
