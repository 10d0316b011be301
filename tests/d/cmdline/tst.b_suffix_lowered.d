/*
 * ASSERTION: -b 1t asks for more than the framework can give; the buffer
 * is lowered (bufresize=auto: "dtrace: buffer size lowered to 16m" with
 * one CPU, less with more, so standard error is not compared) and the
 * program runs.
 * @@options: -q -b 1t
 */
BEGIN
{
	printf("ok\n");
	exit(0);
}
