/*
 * Asserts D_AGG_SCALAR: lquantize()'s increment must be a scalar.
 */
BEGIN
{
	@a = lquantize(1, 0, 10, 1, "x");
}
