/*
 * Asserts D_AGG_REDEF: an aggregation keeps its function across clauses.
 */
BEGIN
{
	@a = max(1);
}
END
{
	@a = min(1);
}
