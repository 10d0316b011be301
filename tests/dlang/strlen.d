/* Pins the DIF for: a subroutine call pushes its string argument with pushtr. */
BEGIN
{
	trace(strlen(execname));
}
