/*
 * Asserts D_OP_ACT: stack() is an action; it may be an aggregation key but not a value.
 */
BEGIN
{
	x = stack();
}
