/*
 * Asserts D_OP_ACT: actions cannot be the operands of ?:.
 */
BEGIN
{
	x = 1;
	x ? trace(1) : trace(2);
}
