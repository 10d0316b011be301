/*
 * Asserts D_LLQUANT_NSTEPTYPE: llquantize's steps must be a constant.
 */
BEGIN
{
	@a = llquantize(1, 10, 0, 6, pid);
}
