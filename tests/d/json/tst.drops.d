/*
 * -x oformat=json: drops are records too: a 64-byte principal buffer holds
 * three 16-byte records next to the room kept for exit()'s, so the two
 * clauses that find it full are counted, and the count comes
 * as one {"type":"drop"} line on standard output (and DTrace's message on
 * standard error), after the records that fit.
 */
/* @@options: -x oformat=json */
#pragma D option bufsize=64

BEGIN { printf("small\n"); }
BEGIN { trace(1); }
BEGIN { trace(2); }
BEGIN { trace(3); }
BEGIN { trace(4); }
BEGIN { exit(0); }
