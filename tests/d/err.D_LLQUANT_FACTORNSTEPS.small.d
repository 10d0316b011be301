/*
 * Asserts D_LLQUANT_FACTORNSTEPS: llquantize()'s steps per magnitude may not be
 * fewer than its factor.
 */
BEGIN
{
	@a = llquantize(1, 10, 0, 6, 5);
}
