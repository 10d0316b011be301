/*
 * Asserts D_SYNTAX: positional conversions (%n$) are not supported.
 */
BEGIN
{
	printf("%1$d", 1);
}
