/*
 * Asserts D_DECL_COMBO: float and double combine only as "long double";
 * "short double" (or "unsigned float", "long float") is no type.
 */
short double d;
BEGIN
{
	trace(1);
}
