/*
 * Asserts D_OP_ACT: an action cannot be used inside an expression.
 */
BEGIN
{
	x = 1 + trace(1);
}
