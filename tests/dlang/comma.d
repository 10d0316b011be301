/* Pins the DIF for: the comma operator keeps the right value. */
BEGIN
{
	x = 1;
	trace((x = 2, x + 1));
}
