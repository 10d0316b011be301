/*
 * ASSERTION: -b takes a size as bufsize does: a k, m, g or t suffix, in
 * either case (here 64K); the program runs with that buffer.
 * @@options: -q -b 64K
 */
BEGIN
{
	printf("ok\n");
	exit(0);
}
