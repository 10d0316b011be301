/*
 * Asserts D_OP_INCOMPLETE: members of an incomplete struct cannot be used.
 */
struct fwd *p;
BEGIN
{
	trace(p->a);
}
