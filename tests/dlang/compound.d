/* Pins the DIF for: x += y loads, adds and stores. */
BEGIN
{
	x = 1;
	x += pid;
}
