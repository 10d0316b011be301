/*
 * Asserts D_LLQUANT_MAGTOOBIG: llquantize's buckets must fit in 64 bits.
 */
BEGIN
{
	@a = llquantize(1, 10, 0, 30, 20);
}
