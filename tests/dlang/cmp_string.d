/* Pins the DIF for: string == is scmp + be. */
BEGIN
{
	trace(execname == "init");
}
