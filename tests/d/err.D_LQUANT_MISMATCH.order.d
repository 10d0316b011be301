/*
 * Asserts D_LQUANT_MISMATCH: lquantize's base must be below its limit.
 */
BEGIN
{
	@a = lquantize(1, 10, 0);
}
