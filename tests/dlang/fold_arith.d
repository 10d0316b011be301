/* Pins the DIF for: constant arithmetic is folded: no add/mul emitted. */
BEGIN
{
	trace(1 + 2 * 3 - 4 / 2);
}
