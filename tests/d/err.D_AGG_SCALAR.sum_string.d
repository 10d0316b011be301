/*
 * Asserts D_AGG_SCALAR: sum() needs a scalar.
 */
BEGIN
{
	@a = sum(execname);
}
