/*
 * Asserts D_KEY_TYPE: a thread-local array key must be a scalar or string.
 */
struct s { int a; };
struct s *p;
BEGIN
{
	self->a[*p] = 1;
}
