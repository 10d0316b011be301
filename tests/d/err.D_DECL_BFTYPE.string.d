/*
 * Asserts D_DECL_BFTYPE: a bit-field must have an integer or enum type.
 */
struct s { string a : 3; };
BEGIN
{
	trace(1);
}
