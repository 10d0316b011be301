/* Pins the DIF for: ++x adds one and stores the new value. */
BEGIN
{
	x = 1;
	trace(++x);
}
