/* Pins the DIF for: unary minus is sub from %r0. */
BEGIN
{
	trace(-pid);
}
