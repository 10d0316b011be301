/*
 * Asserts D_PRAGERR: #pragma D error stops compilation.
 */
#pragma D error "not supported here"
BEGIN
{
	trace(1);
}
