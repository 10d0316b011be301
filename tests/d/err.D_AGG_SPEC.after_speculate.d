/*
 * Asserts D_AGG_SPEC: an aggregation may not follow speculate().
 */
BEGIN
{
	speculate(1);
	@a = count();
}
