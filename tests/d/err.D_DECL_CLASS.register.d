/*
 * Asserts D_DECL_CLASS: register is not a D storage class.
 */
register int x;
BEGIN
{
	trace(1);
}
