/*
 * Asserts D_OP_ARITH: unary minus needs an arithmetic operand.
 */
BEGIN
{
	trace(-execname);
}
