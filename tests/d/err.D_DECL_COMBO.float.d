/*
 * Asserts D_DECL_COMBO: Sonde has no floating-point types.
 */
double d;
BEGIN
{
	trace(1);
}
