/*
 * Asserts D_NORMALIZE_SCALAR: normalize()'s factor must be a scalar.
 */
BEGIN
{
	@a = count();
	normalize(@a, "x");
}
