/* Pins the DIF for: an integer constant is one setx from the integer table. */
BEGIN
{
	trace(42);
}
