/* Pins the DIF for: a character constant is its (signed) value. */
BEGIN
{
	trace('A');
}
