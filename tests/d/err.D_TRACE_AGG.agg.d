/*
 * Asserts D_TRACE_AGG: trace() cannot record an aggregation.
 */
BEGIN
{
	@a = count();
	trace(@a);
}
