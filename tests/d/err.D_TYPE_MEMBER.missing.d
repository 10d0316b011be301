/*
 * Asserts D_TYPE_MEMBER: a struct has only its own members.
 */
struct s { int a; };
struct s *p;
BEGIN
{
	trace(p->b);
}
