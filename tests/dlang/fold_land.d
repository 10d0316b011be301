/* Pins the DIF for: a false constant left operand makes && constant. */
BEGIN
{
	trace(0 && pid);
}
