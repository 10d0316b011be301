/*
 * Asserts D_ADDROF_BITFIELD: a bit-field has no address.
 */
struct s { int a : 3; }; struct s *p;
BEGIN
{
	trace(&p->a);
}
