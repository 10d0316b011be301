/* Pins the DIF for: && short-circuits with forward branches. */
BEGIN
{
	trace(pid && tid);
}
