/* Pins the DIF for: ^^ evaluates both sides and xors their truth values. */
BEGIN
{
	trace(pid ^^ tid);
}
