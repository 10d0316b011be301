/*
 * Asserts D_PROTO_ARG: cleanpath( ) takes a string.
 */
BEGIN
{
	trace(cleanpath(1));
}
