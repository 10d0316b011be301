/*
 * Asserts D_SYNTAX: expressions nest at most 32 deep, and the message names
 * the limit.
 */
BEGIN
{
	trace(((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))));
}
