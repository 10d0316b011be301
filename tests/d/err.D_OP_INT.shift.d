/*
 * Asserts D_OP_INT: << needs integer operands.
 */
BEGIN
{
	trace(1 << "x");
}
