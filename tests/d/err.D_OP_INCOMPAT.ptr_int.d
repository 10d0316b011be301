/*
 * Asserts D_OP_INCOMPAT: a pointer and an integer other than the constant
 * 0 do not mix without a cast.
 */
BEGIN
{
	p = (int *)alloca(8);
	p = 5;
}
