/*
 * Asserts D_PROTO_ARG.cleanpath_int.d: cleanpath( ) takes a string.
 */
BEGIN
{
	trace(cleanpath(1));
}
