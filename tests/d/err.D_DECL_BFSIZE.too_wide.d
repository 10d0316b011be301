/*
 * Asserts D_DECL_BFSIZE: a bit-field is no wider than its type (char: 8
 * bits).
 */
struct s { char a : 9; };
BEGIN
{
	trace(1);
}
