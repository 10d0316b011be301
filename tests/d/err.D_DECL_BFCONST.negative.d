/*
 * Asserts D_DECL_BFCONST: a bit-field's width is a positive integral
 * constant.
 */
struct s { int a : -1; };
BEGIN
{
	trace(1);
}
