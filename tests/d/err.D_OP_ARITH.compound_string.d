/*
 * Asserts D_OP_ARITH: += on a string variable needs arithmetic operands.
 */
BEGIN
{
	s = "a";
	s += 1;
}
