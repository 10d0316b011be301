/*
 * ASSERTION: where DTrace's printf departs from C's: the flag parser
 * lets the later of 0 and - win ("%-06d" zero-pads, "%0-6d" is
 * left-justified), and a precision of 0 is dropped when the format is
 * rebuilt (only a precision > 0 is passed on), so "%.0s" prints the
 * whole string, "%.0d" of 0 prints "0" and "%.*s" with 0 likewise.
 */
#pragma D option quiet

BEGIN
{
	printf("[%-06d] [%0-6d]\n", 42, 42);
	printf("[%.0s] [%.0d] [%.*s]\n", "abcdef", 0, 0, "xyz");
	exit(0);
}
