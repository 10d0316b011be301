/*
 * Asserts D_PROTO_ARG: rw_write_held( ) takes a krwlock_t *, not a string.
 */
BEGIN
{
	trace(rw_write_held("lock"));
}
