/* Pins the DIF for: arg0..arg9 are built-in scalars. */
BEGIN
{
	trace(arg0 + arg9);
}
