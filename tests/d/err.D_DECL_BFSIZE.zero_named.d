/*
 * Asserts D_DECL_BFSIZE: a named bit-field needs at least one bit.
 */
struct s { int a : 0; };
BEGIN
{
	trace(1);
}
