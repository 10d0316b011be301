/*
 * Asserts D_SYNTAX: a comment that never ends is a syntax error.
 */
BEGIN
{
	/* no end
}
