/*
 * Asserts D_OP_SCALAR: the condition of ?: must be a scalar, not a string.
 */
BEGIN
{
	x = "a" ? 1 : 2;
}
