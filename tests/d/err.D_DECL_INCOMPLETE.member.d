/*
 * Asserts D_DECL_INCOMPLETE: a member cannot have an incomplete type.
 */
struct s { struct nosuch n; };
BEGIN
{
	trace(1);
}
