/*
 * Asserts D_ARR_BADREF: args[] must be indexed.
 */
BEGIN
{
	trace(args);
}
