/*
 * Asserts D_AGG_MDIM: an aggregation takes one list of keys, not two.
 */
BEGIN
{
	@a[1][2] = count();
}
