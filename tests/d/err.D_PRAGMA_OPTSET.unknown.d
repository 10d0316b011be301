/*
 * Asserts D_PRAGMA_OPTSET: an unknown option name cannot be set.
 */
#pragma D option nosuchoption=1
BEGIN
{
	trace(1);
}
