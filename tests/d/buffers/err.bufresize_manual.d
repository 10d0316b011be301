/*
 * ASSERTION: under bufresize=manual a principal buffer that cannot be
 * allocated is not lowered: tracing fails to start, as the Guide's
 * "Buffer Resizing Policy" shows it: the matched notice, then "could not
 * enable tracing: Not enough space", and exit status 1.
 */
#pragma D option bufsize=64g
#pragma D option bufresize=manual

BEGIN
{
	exit(0);
}
