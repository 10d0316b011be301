/*
 * ASSERTION: a precision on an integer conversion sets the minimum
 * number of digits (and disables the 0 flag).  (A precision of 0 is in
 * tst.dtrace_quirks.d.)
 */
#pragma D option quiet

BEGIN
{
	printf("[%.5d] [%8.3d] [%-8.3d] [%08.3d]\n", 42, 42, 42, 42);
	printf("[%.4x] [%#.4x] [%.3o] [%+.3d]\n", 10, 10, 8, 7);
	printf("[%.3u] [%10.5u]\n", 5, 123);
	exit(0);
}
