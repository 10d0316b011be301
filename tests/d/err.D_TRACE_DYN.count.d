/*
 * Asserts D_TRACE_DYN: count() outside an aggregation is of dynamic type.
 */
BEGIN
{
	trace(count());
}
