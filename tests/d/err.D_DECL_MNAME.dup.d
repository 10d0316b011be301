/*
 * Asserts D_DECL_MNAME: a member name cannot repeat.
 */
struct s { int a; long a; };
BEGIN
{
	trace(1);
}
