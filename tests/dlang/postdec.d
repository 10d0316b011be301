/* Pins the DIF for: x-- stores x - 1 and yields the old value. */
BEGIN
{
	x = 1;
	trace(x--);
}
