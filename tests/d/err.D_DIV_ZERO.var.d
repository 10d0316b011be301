/*
 * Asserts D_DIV_ZERO: dividing by a constant zero is an error even with a variable dividend.
 */
BEGIN
{
	trace(timestamp / 0);
}
