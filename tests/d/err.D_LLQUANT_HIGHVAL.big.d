/*
 * Asserts D_LLQUANT_HIGHVAL: llquantize's high magnitude must fit in 16 bits.
 */
BEGIN
{
	@a = llquantize(1, 10, 0, 70000, 20);
}
