/*
 * Asserts D_TYPE_MEMBER: offsetof needs an existing member.
 */
struct s { int a; };
BEGIN
{
	trace(offsetof(struct s, b));
}
