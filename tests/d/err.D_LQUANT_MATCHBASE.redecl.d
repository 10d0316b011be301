/*
 * Asserts D_LQUANT_MATCHBASE: lquantize's base must match the earlier use.
 */
BEGIN
{
	@a = lquantize(1, 0, 10);
	@a = lquantize(1, 1, 10);
}
