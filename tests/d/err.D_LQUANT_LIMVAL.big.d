/*
 * Asserts D_LQUANT_LIMVAL: lquantize's limit must fit in 32 bits.
 */
BEGIN
{
	@a = lquantize(1, 0, 0x100000000);
}
