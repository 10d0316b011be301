/*
 * Asserts D_PRAGMA_OPTSET: bufpolicy must be switch, fill or ring.
 */
#pragma D option bufpolicy=drop
BEGIN
{
	trace(1);
}
