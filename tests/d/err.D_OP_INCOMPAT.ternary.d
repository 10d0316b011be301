/*
 * Asserts D_OP_INCOMPAT: ?: branches must have compatible types.
 */
BEGIN
{
	trace(pid ? 1 : "x");
}
