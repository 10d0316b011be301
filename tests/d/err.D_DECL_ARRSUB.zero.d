/*
 * Asserts D_DECL_ARRSUB: an array dimension must be a positive constant (DTrace's tag).
 */
int a[0];
BEGIN
{
	trace(1);
}
