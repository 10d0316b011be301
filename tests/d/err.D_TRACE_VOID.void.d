/*
 * Asserts D_TRACE_VOID: trace() cannot record a void value.
 */
BEGIN
{
	trace(bcopy(0, 0, 0));
}
