/*
 * Asserts D_OP_INCOMPAT: a string cannot be compared with an integer.
 */
BEGIN
{
	trace(execname == 1);
}
