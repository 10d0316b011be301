/* Pins the DIF for: a constant condition keeps only the live branch. */
BEGIN
{
	trace(1 ? timestamp : pid);
}
