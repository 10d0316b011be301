/* Pins the DIF for: constant shifts fold, >> of a negative int is arithmetic. */
BEGIN
{
	trace(-16 >> 2);
}
