/*
 * Asserts D_TRUNC_SCALAR: trunc()'s count must be a scalar.
 */
BEGIN
{
	@a = count();
	trunc(@a, "x");
}
