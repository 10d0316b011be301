/*
 * ASSERTION: without quiet, a committed record keeps the prefix of the
 * probe that recorded it (BEGIN), and appears after the record of the
 * clause that committed it (END).
 */
BEGIN
{
	s = speculation();
	trace(s);
}

BEGIN
{
	speculate(s);
	trace("speculative");
}

BEGIN
{
	exit(0);
}

END
{
	commit(s);
}
