/*
 * Asserts D_OP_PTR: -> needs a pointer.
 */
struct s { int a; };
BEGIN
{
	trace(pid->a);
}
