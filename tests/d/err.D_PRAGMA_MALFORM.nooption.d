/*
 * Asserts D_PRAGMA_MALFORM: #pragma D option needs an option.
 */
#pragma D option
BEGIN
{
	trace(1);
}
