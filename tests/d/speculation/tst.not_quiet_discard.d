/*
 * ASSERTION: without quiet, a clause whose only action is discard()
 * records nothing, so it prints no line; the discarded data prints
 * nothing either.
 */
BEGIN
{
	s = speculation();
	trace(s);
}

BEGIN
{
	speculate(s);
	trace("discarded");
}

BEGIN
{
	discard(s);
}

BEGIN
{
	exit(0);
}
