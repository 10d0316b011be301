/*
 * Asserts D_CG_EXPR: trace() of stack() type-checks, but stack() is an action
 * that cannot be called inside an expression.
 */
BEGIN
{
	trace(stack());
}
