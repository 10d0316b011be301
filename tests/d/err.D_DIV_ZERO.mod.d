/*
 * Asserts D_DIV_ZERO: constant remainder by zero is a compile error.
 */
BEGIN
{
	trace(10 % (2 - 2));
}
