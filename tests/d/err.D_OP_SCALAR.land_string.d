/*
 * Asserts D_OP_SCALAR: && needs scalar operands; in D a string is not one.
 */
BEGIN
{
	x = "a" && 1;
}
