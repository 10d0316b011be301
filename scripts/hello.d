/*
 * hello.d - the smallest D program: print a greeting and stop.
 *
 *   sonde# dtrace -s /scripts/hello.d
 *   hello, world
 */
#pragma D option quiet

BEGIN
{
	printf("hello, world\n");
	exit(0);
}
