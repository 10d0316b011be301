/* Pins the DIF for: signed remainder is srem. */
BEGIN
{
	trace(pid % 7);
}
