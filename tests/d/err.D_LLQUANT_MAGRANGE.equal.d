/*
 * Asserts D_LLQUANT_MAGRANGE: llquantize()'s high magnitude must be greater than
 * its low magnitude (equal is an error).
 */
BEGIN
{
	@a = llquantize(1, 10, 3, 3, 20);
}
