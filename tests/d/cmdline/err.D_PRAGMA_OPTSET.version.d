/*
 * ASSERTION: a D version the compiler does not know is refused.
 */
#pragma D option version=9.9

BEGIN { exit(0); }
