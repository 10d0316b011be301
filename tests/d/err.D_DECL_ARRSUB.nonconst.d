/*
 * Asserts D_DECL_ARRSUB: an array dimension must be a constant.
 */
int a[pid];
BEGIN
{
	trace(1);
}
