/*
 * Asserts D_PROTO_ARG: strlen needs a string.
 */
BEGIN
{
	trace(strlen(1));
}
