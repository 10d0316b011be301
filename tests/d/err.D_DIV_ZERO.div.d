/*
 * Asserts D_DIV_ZERO: constant division by zero is a compile error.
 */
BEGIN
{
	trace(1 / 0);
}
