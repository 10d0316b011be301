/*
 * Asserts D_OP_INCOMPAT: the pointer branches of ?: must point to
 * compatible types.
 */
BEGIN
{
	p = (int *)alloca(8);
	q = (char *)alloca(8);
	r = arg0 ? p : q;
}
