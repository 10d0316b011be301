/*
 * Asserts D_CHR_NL: a character constant may not contain a newline.
 */
BEGIN
{
	trace('a
');
}
