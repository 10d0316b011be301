/*
 * Asserts D_IDENT_UNDEF: a call's arguments are checked before its argument
 * count.
 */
BEGIN
{
	trace(strlen(y, 1));
}
