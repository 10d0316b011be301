/*
 * Asserts D_LLQUANT_FACTORVAL: llquantize's factor must fit in 16 bits.
 */
BEGIN
{
	@a = llquantize(1, 70000, 0, 1, 70000);
}
