/*
 * Asserts D_AGG_SCALAR: an aggregation is not a value.
 */
BEGIN
{
	@a = count();
	x = @a;
}
