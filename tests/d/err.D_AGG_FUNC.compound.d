/*
 * Asserts D_AGG_FUNC: aggregations cannot be updated with +=.
 */
BEGIN
{
	@a += count();
}
