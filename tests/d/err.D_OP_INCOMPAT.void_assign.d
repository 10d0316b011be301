/*
 * Asserts D_OP_INCOMPAT: an action's void result cannot be stored.
 */
BEGIN
{
	x = bcopy(0, 0, 0);
}
