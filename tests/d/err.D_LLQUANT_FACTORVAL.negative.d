/*
 * Asserts D_LLQUANT_FACTORVAL: a negative factor is not an unsigned 16-bit
 * quantity.
 */
BEGIN
{
	@a = llquantize(1, -10, 0, 6, 20);
}
