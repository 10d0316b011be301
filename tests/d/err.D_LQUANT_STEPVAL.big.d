/*
 * Asserts D_LQUANT_STEPVAL: lquantize's step must fit in 16 bits.
 */
BEGIN
{
	@a = lquantize(1, 0, 1000000, 70000);
}
