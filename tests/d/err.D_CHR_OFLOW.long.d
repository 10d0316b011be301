/*
 * Asserts D_CHR_OFLOW: a character constant longer than eight characters is rejected.
 */
BEGIN
{
	trace('abcdefghij');
}
