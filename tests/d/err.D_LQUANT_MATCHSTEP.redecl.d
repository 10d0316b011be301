/*
 * Asserts D_LQUANT_MATCHSTEP: lquantize's step must match the earlier use.
 */
BEGIN
{
	@a = lquantize(1, 0, 10, 1);
	@a = lquantize(1, 0, 10, 2);
}
