/*
 * Asserts D_LLQUANT_MAGRANGE: llquantize's high magnitude must not be below the low one.
 */
BEGIN
{
	@a = llquantize(1, 10, 6, 2, 20);
}
