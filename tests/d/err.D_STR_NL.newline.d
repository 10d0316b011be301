/*
 * Asserts D_STR_NL: a string literal may not contain a newline.
 */
BEGIN
{
	trace("abc
");
}
