/* Pins the DIF for: and, or, xor, not. */
BEGIN
{
	trace((pid & 0xff) | (tid ^ 3));
	trace(~pid);
}
