/*
 * Asserts D_LQUANT_MATCHLIM: lquantize's limit must match the earlier use.
 */
BEGIN
{
	@a = lquantize(1, 0, 10);
	@a = lquantize(1, 0, 20);
}
