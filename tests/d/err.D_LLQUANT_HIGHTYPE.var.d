/*
 * Asserts D_LLQUANT_HIGHTYPE: llquantize's high magnitude must be a constant.
 */
BEGIN
{
	@a = llquantize(1, 10, 0, pid, 20);
}
