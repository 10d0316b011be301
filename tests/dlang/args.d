/* Pins the DIF for: args[i] is ldga args. */
BEGIN
{
	trace(args[1]);
}
