/*
 * Asserts D_OFFSETOF_BITFIELD: offsetof does not apply to a bit-field member.
 */
struct s { int x; int a : 3; };
BEGIN
{
	trace(offsetof(struct s, a));
}
