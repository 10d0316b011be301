/*
 * Asserts D_DECL_COMBO: short and long cannot be combined.
 */
short long x;
BEGIN
{
	trace(1);
}
