/*
 * dtrace -C: an #if without its #endif is reported at the #if's line.
 */
/* @@options: -C */
#ifdef X
BEGIN { exit(0); }
