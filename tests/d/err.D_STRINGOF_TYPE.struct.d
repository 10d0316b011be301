/*
 * Asserts D_STRINGOF_TYPE: stringof cannot be applied to a struct.
 */
struct s { int a; };
struct s *p;
BEGIN
{
	trace(stringof(*p));
}
