/*
 * Asserts D_PROTO_LEN: progenyof( ) takes a process id.
 */
BEGIN
{
	trace(progenyof());
}
