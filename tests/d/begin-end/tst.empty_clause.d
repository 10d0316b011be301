/*
 * ASSERTION: an empty clause takes the default action: its line is
 * just the CPU/ID/FUNCTION:NAME prefix.  A clause of assignments only
 * records nothing at all.
 */
BEGIN
{
}

BEGIN
{
	x = 1;
}

BEGIN
{
	exit(0);
}
