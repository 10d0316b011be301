/*
 * Asserts D_LLQUANT_FACTORTYPE: llquantize's factor must be a constant.
 */
BEGIN
{
	@a = llquantize(1, pid, 0, 6, 20);
}
