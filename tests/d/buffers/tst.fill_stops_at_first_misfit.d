/*
 * ASSERTION: under the fill policy tracing stops at the first record that
 * does not fit in the room left: that record and every later one are not
 * traced, even a small one that would still fit ("no further data will be
 * traced to a filled buffer even if the data would fit"), while END's
 * record, for which room was kept, is; dtrace reports the drops and exits
 * with status 0.  A 128-byte buffer keeps 16 bytes for END's record and
 * some for errors, which leaves room for the 40-byte and the 16-byte
 * records but not for the second 40-byte one; the last 16-byte record
 * would fit where that one did not.
 */
#pragma D option quiet
#pragma D option bufpolicy=fill
#pragma D option bufsize=128

BEGIN { printf("%d %d %d %d\n", 1, 2, 3, 4); }
BEGIN { trace(5); }
BEGIN { printf("%d %d %d %d\n", 6, 7, 8, 9); }
BEGIN { trace(10); }

END
{
	trace(99);
}
