/*
 * Asserts D_DECL_COMBO: there is no unsigned float.
 */
unsigned float f;
BEGIN
{
	trace(1);
}
