/*
 * Asserts D_PROTO_LEN.progenyof_none.d: progenyof( ) takes a process id.
 */
BEGIN
{
	trace(progenyof());
}
