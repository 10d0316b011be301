/*
 * Asserts D_DECL_BFCONST: a bit-field's width is a constant, not a variable.
 */
int w; struct s { int a : w; };
BEGIN
{
	trace(1);
}
