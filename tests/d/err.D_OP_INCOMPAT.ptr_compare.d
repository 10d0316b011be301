/*
 * Asserts D_OP_INCOMPAT: pointers to different types do not compare.
 */
BEGIN
{
	p = (int *)alloca(8);
	q = (long *)alloca(8);
	trace(p == q);
}
