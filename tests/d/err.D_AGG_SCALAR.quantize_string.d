/*
 * Asserts D_AGG_SCALAR: quantize() needs a scalar.
 */
BEGIN
{
	@a = quantize("x");
}
