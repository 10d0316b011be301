/*
 * Asserts D_DECL_BADCLASS: register is a C storage class with no meaning in D.
 */
register int x;
BEGIN
{
	trace(1);
}
