/*
 * Asserts D_SYNTAX: two binary operators in a row are a syntax error.
 */
BEGIN
{
	x = 1 + * ;
}
