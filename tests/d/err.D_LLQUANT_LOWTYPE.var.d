/*
 * Asserts D_LLQUANT_LOWTYPE: llquantize's low magnitude must be a constant.
 */
BEGIN
{
	@a = llquantize(1, 10, pid, 6, 20);
}
