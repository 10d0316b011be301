/*
 * Asserts D_OP_INCOMPAT: a string cannot be stored in an integer variable.
 */
BEGIN
{
	x = 1;
	x = "a";
}
