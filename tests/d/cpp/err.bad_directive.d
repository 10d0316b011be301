/*
 * dtrace -C: a directive cpp does not know is an error (without -C, D's
 * own control lines are #pragma and #line only).
 */
/* @@options: -C */
#frobnicate now
BEGIN { exit(0); }
