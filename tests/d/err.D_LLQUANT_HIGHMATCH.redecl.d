/*
 * Asserts D_LLQUANT_HIGHMATCH: llquantize's high magnitude must match the
 * earlier use (DTrace names the first parameter that differs).
 */
BEGIN
{
	@a = llquantize(1, 10, 0, 6, 20);
	@a = llquantize(1, 10, 0, 7, 20);
}
