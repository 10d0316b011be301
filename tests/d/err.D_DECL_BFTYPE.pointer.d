/*
 * Asserts D_DECL_BFTYPE: a pointer cannot be a bit-field.
 */
struct s { int *a : 3; };
BEGIN
{
	trace(1);
}
