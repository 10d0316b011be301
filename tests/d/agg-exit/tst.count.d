/*
 * ASSERTION: count() without keys prints at exit, after the closing
 * newline, as one " %16lld" line.
 */
#pragma D option quiet

BEGIN
{
	@ = count();
	@ = count();
	@ = count();
	exit(0);
}
