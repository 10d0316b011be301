/*
 * Asserts D_DECL_BFTYPE: Sonde does not support bit-fields.
 */
struct s { int a : 3; };
BEGIN
{
	trace(1);
}
