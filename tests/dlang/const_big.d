/* Pins the DIF for: a 64-bit constant uses the same setx. */
BEGIN
{
	trace(0xfedcba9876543210);
}
