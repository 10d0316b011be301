/* Pins the DIF for: a character constant is an int (its bytes, unsigned). */
BEGIN
{
	trace('A');
}
