/*
 * Asserts D_OP_ARITH: D has no floating-point arithmetic.
 */
double d;
BEGIN
{
	trace(d + 1);
}
