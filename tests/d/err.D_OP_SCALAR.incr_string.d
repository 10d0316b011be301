/*
 * Asserts D_OP_SCALAR: ++ needs a scalar operand; its type is checked before
 * whether it can be written.
 */
BEGIN
{
	s = "a";
	s++;
}
