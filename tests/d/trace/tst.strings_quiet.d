/*
 * ASSERTION: quiet trace() of strings prints them verbatim with no
 * newline; a % in a traced string is not a conversion.
 */
#pragma D option quiet

BEGIN
{
	trace("one");
	trace(" two");
	trace(" 100%d %s %%");
	trace("\n");
	exit(0);
}
