/*
 * ASSERTION: a single dropped record is reported in the singular,
 * "1 drop on CPU 0"; with -x droptags the line starts with
 * [DTRACEDROP_PRINCIPAL].  A 48-byte buffer holds two 16-byte trace()
 * records next to the room kept for exit()'s; the third is dropped.
 * @@options: -x droptags -x bufsize=48
 */
#pragma D option quiet

BEGIN { trace(1); }
BEGIN { trace(2); }
BEGIN { trace(3); }

BEGIN
{
	exit(0);
}
