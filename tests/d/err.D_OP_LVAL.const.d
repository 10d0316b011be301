/*
 * Asserts D_OP_LVAL: a constant cannot be assigned.
 */
BEGIN
{
	1 = 2;
}
