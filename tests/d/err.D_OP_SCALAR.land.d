/*
 * Asserts D_OP_SCALAR: && needs scalar operands.
 */
struct s { int a; };
struct s *p;
BEGIN
{
	trace(1 && *p);
}
