/*
 * Asserts D_CHR_NULL: an empty character constant is rejected.
 */
BEGIN
{
	trace('');
}
