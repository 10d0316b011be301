/* Pins the DIF for: integer arguments are pushed with pushtv. */
BEGIN
{
	trace(substr(execname, 1, 3));
}
