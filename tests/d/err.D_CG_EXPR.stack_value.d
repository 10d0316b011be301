/*
 * Asserts D_CG_EXPR: stack() is an action; it may be an aggregation key but
 * not a value (DTrace finds the call when it generates code).
 */
BEGIN
{
	x = stack();
}
