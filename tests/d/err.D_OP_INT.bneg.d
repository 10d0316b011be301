/*
 * Asserts D_OP_INT: ~ needs an integer operand.
 */
BEGIN
{
	trace(~probefunc);
}
