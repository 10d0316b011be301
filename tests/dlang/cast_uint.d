/* Pins the DIF for: an unsigned narrowing cast uses srl. */
BEGIN
{
	trace((unsigned short)arg0);
}
