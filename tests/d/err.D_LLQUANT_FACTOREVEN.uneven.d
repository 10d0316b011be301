/*
 * Asserts D_LLQUANT_FACTOREVEN: llquantize's factor must divide the steps.
 */
BEGIN
{
	@a = llquantize(1, 10, 0, 6, 25);
}
