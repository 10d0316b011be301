/*
 * Asserts D_IDENT_UNDEF: reading a variable that was never assigned or declared fails.
 */
BEGIN
{
	trace(nosuchvar);
}
