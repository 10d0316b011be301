/* Pins the DIF for: right shift of a signed int is sra, of unsigned srl. */
BEGIN
{
	trace(pid >> 1);
	trace(timestamp >> 1);
}
