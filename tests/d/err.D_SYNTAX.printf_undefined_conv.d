/*
 * Asserts D_SYNTAX: an unknown conversion is a syntax error in DTrace
 * ("format conversion #1 is undefined: %v").
 */
BEGIN
{
	printf("%v", 1);
}
