/* Pins the DIF for: a narrowing cast shifts left then right (arithmetic). */
BEGIN
{
	trace((char)pid);
}
