/*
 * Asserts D_DIV_ZERO: a folded zero divisor counts too.
 */
BEGIN
{
	x = 1;
	trace(x / (3 * 4 - 12));
}
