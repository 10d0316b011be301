/*
 * Asserts D_DECL_ARRDIM: an array dimension must be positive.
 */
int a[0];
BEGIN
{
	trace(1);
}
