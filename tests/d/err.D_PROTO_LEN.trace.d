/*
 * Asserts D_PROTO_LEN: trace takes one argument.
 */
BEGIN
{
	trace(1, 2);
}
