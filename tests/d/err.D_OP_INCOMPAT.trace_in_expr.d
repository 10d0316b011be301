/*
 * Asserts D_OP_INCOMPAT: an action's result is void, and + takes only
 * integers and pointers.
 */
BEGIN
{
	x = 1 + trace(1);
}
