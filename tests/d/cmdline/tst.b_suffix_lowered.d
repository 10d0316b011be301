/*
 * ASSERTION: -b 1t asks for more than the framework can give; the buffer
 * is lowered (bufresize=auto) and dtrace says to what.
 * @@options: -q -b 1t
 */
BEGIN
{
	printf("ok\n");
	exit(0);
}
