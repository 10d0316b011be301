/* Pins the DIF for: unsigned > is cmp + bgu. */
BEGIN
{
	trace(timestamp > vtimestamp);
}
