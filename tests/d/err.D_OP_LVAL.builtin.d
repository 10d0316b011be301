/*
 * Asserts D_OP_LVAL: a built-in variable cannot be assigned.
 */
BEGIN
{
	timestamp = 2;
}
