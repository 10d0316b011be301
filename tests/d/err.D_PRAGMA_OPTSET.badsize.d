/*
 * Asserts D_PRAGMA_OPTSET: bufsize needs a size value.
 */
#pragma D option bufsize=lots
BEGIN
{
	trace(1);
}
