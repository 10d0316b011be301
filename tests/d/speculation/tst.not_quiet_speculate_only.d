/*
 * ASSERTION: without quiet, a clause whose only action is speculate()
 * still records its probe: committing the speculation prints the bare
 * BEGIN prefix line.
 */
BEGIN
{
	s = speculation();
	trace(s);
}

BEGIN
{
	speculate(s);
}

BEGIN
{
	exit(0);
}

END
{
	commit(s);
}
