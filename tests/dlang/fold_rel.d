/* Pins the DIF for: constant comparisons fold to 0 or 1. */
BEGIN
{
	trace(3 < 4);
}
