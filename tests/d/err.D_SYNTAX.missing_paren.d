/*
 * Asserts D_SYNTAX: an unclosed parenthesis is a syntax error.
 */
BEGIN
{
	trace((1 + 2);
}
