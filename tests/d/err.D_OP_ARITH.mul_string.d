/*
 * Asserts D_OP_ARITH: strings cannot be multiplied.
 */
BEGIN
{
	trace(execname * 2);
}
