/* Pins the DIF for: unsigned division is udiv. */
BEGIN
{
	trace(timestamp / 3);
}
