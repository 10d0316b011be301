/*
 * Asserts D_PROTO_LEN: mutex_type_spin( ) takes exactly one argument.
 */
BEGIN
{
	trace(mutex_type_spin((kmutex_t *)arg0, 1));
}
