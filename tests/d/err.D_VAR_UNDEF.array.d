/*
 * Asserts D_VAR_UNDEF: reading an array that was never assigned fails.
 */
BEGIN
{
	trace(nosuch[1]);
}
