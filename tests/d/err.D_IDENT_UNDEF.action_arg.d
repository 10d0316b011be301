/*
 * Asserts D_IDENT_UNDEF: an action used as a value reports its argument's own
 * error first.
 */
BEGIN
{
	x = trace(y);
}
