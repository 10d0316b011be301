/*
 * Asserts D_AGG_FUNC: count() is only for aggregations.
 */
BEGIN
{
	x = count();
}
