/*
 * Asserts D_DECL_TYPERED: a tag cannot be both struct and union.
 */
struct s { int a; };
union s *u;
BEGIN
{
	trace(1);
}
