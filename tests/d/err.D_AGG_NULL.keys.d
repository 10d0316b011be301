/*
 * Asserts D_AGG_NULL: an aggregation element as a statement does nothing.
 */
BEGIN
{
	@a[1];
}
