/*
 * Asserts D_OP_INCOMPAT: strings cannot be added (string + string).
 */
BEGIN
{
	trace("a" + "b");
}
