/*
 * Asserts D_OP_SCALAR: an if condition must be a scalar.
 */
struct s { int a; };
struct s *p;
BEGIN
{
	if (*p)
		trace(1);
}
