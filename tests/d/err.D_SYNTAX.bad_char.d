/*
 * Asserts D_SYNTAX: a stray character that starts no token is a syntax error.
 */
BEGIN
{
	trace(1 # 2);
}
