/*
 * ASSERTION: with a 64-byte principal buffer, a clause whose record
 * cannot fit is dropped, each firing counted once; ten such BEGIN
 * clauses are reported together as "10 drops on CPU 0" on stderr,
 * while the small records of the other clauses still print.
 */
#pragma D option quiet
#pragma D option bufsize=64

BEGIN { printf("small\n"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { trace("a string that is far longer than the whole buffer"); }
BEGIN { exit(0); }
