/*
 * Asserts D_OP_INCOMPAT: an int * does not compare with a string.
 */
BEGIN
{
	p = (int *)alloca(8);
	trace(p == "abc");
}
