/* Pins the DIF for: folding wraps at the int width (C semantics). */
BEGIN
{
	trace(0x7fffffff + 1);
}
