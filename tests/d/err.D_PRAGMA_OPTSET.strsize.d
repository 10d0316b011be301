/*
 * Asserts D_PRAGMA_OPTSET: strsize must be at least 2 bytes.
 */
#pragma D option strsize=1
BEGIN
{
	trace(1);
}
