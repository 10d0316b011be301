/* Pins the DIF for: signed division is sdiv. */
BEGIN
{
	trace(pid / 3);
}
