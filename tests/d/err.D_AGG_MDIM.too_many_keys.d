/*
 * Asserts D_AGG_MDIM: an aggregation has at most eight keys.
 */
BEGIN
{
	@a[1, 2, 3, 4, 5, 6, 7, 8, 9] = count();
}
