/*
 * Asserts D_DIV_ZERO: x /= 0 divides by zero.
 */
BEGIN
{
	x = 1;
	x /= 0;
}
