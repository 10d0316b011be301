/*
 * Asserts D_OP_INCOMPAT: D has no floating-point arithmetic; + takes
 * integers and pointers only.
 */
double d;
BEGIN
{
	trace(d + 1);
}
