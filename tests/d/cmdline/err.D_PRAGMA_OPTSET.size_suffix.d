/*
 * ASSERTION: a size with a suffix DTrace does not know is an invalid
 * value: failed to set option 'bufsize' to '4q'.
 */
#pragma D option bufsize=4q

BEGIN { exit(0); }
