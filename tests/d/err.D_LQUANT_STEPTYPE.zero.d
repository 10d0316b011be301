/*
 * Asserts D_LQUANT_STEPTYPE: lquantize's step must be positive.
 */
BEGIN
{
	@a = lquantize(1, 0, 10, 0);
}
