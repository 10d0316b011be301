/*
 * Asserts D_DECL_BFCONST: a named bit-field needs a positive width (DTrace
 * checks the width is a positive constant before the type and the size).
 */
struct s { int a : 0; };
BEGIN
{
	trace(1);
}
