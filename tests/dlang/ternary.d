/* Pins the DIF for: ?: branches to one of two values in one register. */
BEGIN
{
	trace(pid > 1 ? pid : tid);
}
