/*
 * Asserts D_SIZEOF_BITFIELD: sizeof does not apply to a bit-field member.
 */
struct s { int a : 3; }; struct s v;
BEGIN
{
	trace(sizeof (v.a));
}
