/*
 * -x oformat=json: drops are records too: with a 64-byte principal buffer
 * the two clauses whose strings cannot fit are counted, and the count comes
 * as one {"type":"drop"} line on standard output (and DTrace's message on
 * standard error), after the records that fit.
 */
/* @@options: -x oformat=json */
#pragma D option bufsize=64

BEGIN { printf("small\n"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { exit(0); }
