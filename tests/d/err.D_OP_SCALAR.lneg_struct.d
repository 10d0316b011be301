/*
 * Asserts D_OP_SCALAR: ! needs a scalar operand.
 */
struct s { int a; };
struct s *p;
BEGIN
{
	trace(!*p);
}
