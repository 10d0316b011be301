/*
 * Asserts D_PROTO_LEN: strlen takes one argument.
 */
BEGIN
{
	trace(strlen("a", "b"));
}
