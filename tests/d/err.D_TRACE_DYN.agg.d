/*
 * Asserts D_TRACE_DYN: trace() cannot record an aggregation (a dynamic
 * expression).
 */
BEGIN
{
	@a = count();
	trace(@a);
}
