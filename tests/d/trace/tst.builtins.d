/*
 * ASSERTION: the probe description built-ins of BEGIN are "dtrace",
 * "", "" and "BEGIN"; id is 1; probe identifiers are strings and
 * integers as traced.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s] [%s] [%s] %d\n", probeprov, probemod, probefunc,
	    probename, id);
}

END
{
	printf("[%s] [%s] [%s] [%s] %d\n", probeprov, probemod, probefunc,
	    probename, id);
}

BEGIN
{
	exit(0);
}
