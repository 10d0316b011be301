/* Pins the DIF for: signed < is cmp + bl. */
BEGIN
{
	trace(pid < tid);
}
