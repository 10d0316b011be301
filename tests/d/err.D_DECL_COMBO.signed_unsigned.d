/*
 * Asserts D_DECL_COMBO: signed and unsigned cannot be combined.
 */
signed unsigned int x;
BEGIN
{
	trace(1);
}
