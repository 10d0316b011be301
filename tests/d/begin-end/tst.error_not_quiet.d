/*
 * ASSERTION: not quiet, the ERROR probe (id 3) prints its own
 * CPU/ID/FUNCTION:NAME line between the BEGIN clauses; arg4 is the
 * fault code.
 */
BEGIN
{
	trace("first");
}

BEGIN
{
	x = *(int *)0;
}

ERROR
{
	trace(arg4);
}

BEGIN
{
	trace("last");
	exit(0);
}
