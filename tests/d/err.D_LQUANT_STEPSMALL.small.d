/*
 * Asserts D_LQUANT_STEPSMALL: lquantize's levels must fit in 16 bits.
 */
BEGIN
{
	@a = lquantize(1, 0, 1000000, 1);
}
