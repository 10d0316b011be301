/* Pins the DIF for: add of two built-ins: two loads and one add. */
BEGIN
{
	trace(pid + tid);
}
