/*
 * Asserts D_PROTO_LEN: args[] takes one index.
 */
BEGIN
{
	trace(args[1, 2]);
}
