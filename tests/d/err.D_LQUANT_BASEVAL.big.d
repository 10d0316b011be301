/*
 * Asserts D_LQUANT_BASEVAL: lquantize's base must fit in 32 bits.
 */
BEGIN
{
	@a = lquantize(1, 0x100000000, 0x200000000);
}
