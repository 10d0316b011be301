/*
 * Asserts D_LLQUANT_FACTORMATCH: llquantize's parameters must match the earlier use.
 */
BEGIN
{
	@a = llquantize(1, 10, 0, 6, 20);
	@a = llquantize(1, 10, 0, 7, 20);
}
