/*
 * Asserts D_PROTO_LEN: substr takes at least two arguments.
 */
BEGIN
{
	trace(substr("a"));
}
