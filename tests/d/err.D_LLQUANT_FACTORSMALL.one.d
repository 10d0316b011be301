/*
 * Asserts D_LLQUANT_FACTORSMALL: llquantize's factor must be two or more.
 */
BEGIN
{
	@a = llquantize(1, 1, 0, 6, 20);
}
