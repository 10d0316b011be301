/*
 * Asserts D_STR_NL: a string literal that reaches end of file is rejected.
 */
BEGIN
{
	trace("abc