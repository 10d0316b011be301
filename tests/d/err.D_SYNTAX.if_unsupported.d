/*
 * Asserts D_SYNTAX: if statements are not supported by Sonde's D compiler yet.
 */
BEGIN
{
	if (1) trace(1);
}
