/* Pins the DIF for: nested calls evaluate before any push. */
BEGIN
{
	trace(strjoin(execname, strjoin(":", probefunc)));
}
