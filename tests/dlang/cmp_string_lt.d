/* Pins the DIF for: string < is scmp + bl. */
BEGIN
{
	trace(probefunc < "m");
}
