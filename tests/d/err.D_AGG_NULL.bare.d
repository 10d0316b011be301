/*
 * Asserts D_AGG_NULL: a statement naming an aggregation does nothing.
 */
BEGIN
{
	@a = count();
	@a;
}
