/*
 * ASSERTION: a compiler flag (defaultargs) takes no value.
 */
#pragma D option defaultargs=1

BEGIN { exit(0); }
