/*
 * Asserts D_PRAGMA_INVAL: an unknown #pragma D directive is rejected.
 */
#pragma D frobnicate
BEGIN
{
	trace(1);
}
