/*
 * Asserts D_SYNTAX: a format may not end in a lone % ("format conversion
 * #1 name expected before end of format string").
 */
BEGIN
{
	printf("50%");
}
