/*
 * ASSERTION: an aggregation that never got data prints nothing at exit.
 */
#pragma D option quiet

BEGIN
{
	exit(0);
}

END
/0/
{
	@never = count();
}
