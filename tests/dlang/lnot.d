/* Pins the DIF for: ! is tst, then 0 or 1. */
BEGIN
{
	trace(!pid);
}
