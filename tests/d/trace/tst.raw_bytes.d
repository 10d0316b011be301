/*
 * ASSERTION: trace() of a string prints it as a string whatever it holds
 * (libdtrace knows the record is a string, so it never guesses from the
 * bytes): a control character goes out as it is, the empty string prints
 * nothing.  (Byte dumps are for structs and arrays: tests/d/output/.)
 */
#pragma D option quiet
#pragma D option strsize=16

BEGIN
{
	trace("a\001b");
	printf("|\n");
	trace("");
	printf("|\n");
	exit(0);
}
