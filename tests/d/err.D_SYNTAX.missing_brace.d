/*
 * Asserts D_SYNTAX: a clause body without its closing brace is a syntax error.
 */
BEGIN
{
	trace(1);
