/*
 * Asserts D_OP_ARITH: strings cannot be added.
 */
BEGIN
{
	trace("a" + "b");
}
