/* dtc: -w */
/* Pins the DIF for: destructive actions compile with -w. */
BEGIN
{
	chill(1000);
	raise(9);
	panic();
}
