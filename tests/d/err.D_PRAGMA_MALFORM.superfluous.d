/*
 * Asserts D_PRAGMA_MALFORM: #pragma D option takes one word.
 */
#pragma D option quiet bufsize=1m
BEGIN
{
	exit(0);
}
