/*
 * ASSERTION: a version binding can only be lowered: asking for a newer
 * version than the one already bound is refused ("Requested version
 * conflicts with earlier setting").
 */
#pragma D option version=1.1
#pragma D option version=1.13

BEGIN
{
	exit(0);
}
