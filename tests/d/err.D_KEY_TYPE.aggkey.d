/*
 * Asserts D_KEY_TYPE: an aggregation key must be a scalar or a string.
 */
struct s { int a; };
struct s *p;
BEGIN
{
	@a[*p] = count();
}
