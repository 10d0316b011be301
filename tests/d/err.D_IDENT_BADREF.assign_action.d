/*
 * Asserts D_IDENT_BADREF: the name of an action is not a variable.
 */
BEGIN
{
	trace = 1;
}
