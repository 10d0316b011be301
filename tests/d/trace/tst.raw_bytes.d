/*
 * ASSERTION: trace() of a string that is not printable text (a control
 * character, or the empty string, whose record is all zero bytes) is
 * printed by DTrace as a hex dump of the record, not as a string: a
 * header of the 16 column digits, then rows "%5x:" (after a 5-column
 * margin) of " %02x" bytes, two spaces and the bytes as characters
 * ('.' for unprintable ones).  strsize 16 makes each record one row.
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
