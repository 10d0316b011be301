/*
 * Asserts D_LLQUANT_NSTEPVAL: llquantize's steps must fit in 16 bits.
 */
BEGIN
{
	@a = llquantize(1, 10, 0, 6, 100000);
}
