/*
 * Asserts D_OP_SCALAR: ?: needs a scalar condition.
 */
struct s { int a; };
struct s *p;
BEGIN
{
	trace(*p ? 1 : 2);
}
