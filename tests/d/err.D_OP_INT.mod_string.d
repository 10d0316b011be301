/*
 * Asserts D_OP_INT: % needs integer operands.
 */
BEGIN
{
	trace(execname % 2);
}
