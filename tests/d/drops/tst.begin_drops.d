/*
 * ASSERTION: with a 64-byte principal buffer, every record fits on its
 * own (a trace() record is 16 bytes, and the buffer keeps one record's
 * room for exit()), but BEGIN's clauses all fire before the consumer reads
 * the buffer: the first three records are kept and the ten that find the
 * buffer full are dropped, reported together as "10 drops on CPU 0".
 */
#pragma D option quiet
#pragma D option bufsize=64

BEGIN { trace(1); }
BEGIN { trace(2); }
BEGIN { trace(3); }
BEGIN { trace(4); }
BEGIN { trace(5); }
BEGIN { trace(6); }
BEGIN { trace(7); }
BEGIN { trace(8); }
BEGIN { trace(9); }
BEGIN { trace(10); }
BEGIN { trace(11); }
BEGIN { trace(12); }
BEGIN { trace(13); }
BEGIN { exit(0); }
