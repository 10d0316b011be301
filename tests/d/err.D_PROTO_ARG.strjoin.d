/*
 * Asserts D_PROTO_ARG: strjoin needs strings.
 */
BEGIN
{
	trace(strjoin("a", 2));
}
