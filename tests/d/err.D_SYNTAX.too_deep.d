/*
 * Asserts D_SYNTAX: expressions nest at most 32 deep.
 */
BEGIN
{
	trace(((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))));
}
