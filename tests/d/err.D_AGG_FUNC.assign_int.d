/*
 * Asserts D_AGG_FUNC: an aggregation must be assigned an aggregating function.
 */
BEGIN
{
	@a = 1;
}
