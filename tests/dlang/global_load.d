/* Pins the DIF for: a global scalar load is ldgs. */
BEGIN
{
	x = 1;
	trace(x);
}
