/*
 * Asserts D_IDENT_BADREF: a function name is not a value.
 */
BEGIN
{
	x = strlen;
}
