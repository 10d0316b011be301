/*
 * Asserts D_IDENT_BADREF: args[] must be indexed.
 */
BEGIN
{
	trace(args);
}
