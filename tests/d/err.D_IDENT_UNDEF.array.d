/*
 * Asserts D_IDENT_UNDEF: reading an array that was never assigned fails.
 */
BEGIN
{
	trace(nosuch[1]);
}
