/*
 * Asserts D_LQUANT_STEPLARGE: lquantize() with base equal to limit has no
 * quantization level (DTrace's mismatch is only limit < base).
 */
BEGIN
{
	@a = lquantize(1, 10, 10);
}
