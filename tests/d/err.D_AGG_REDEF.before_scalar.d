/*
 * Asserts D_AGG_REDEF: a changed aggregating function is reported before the
 * value's type (sum of a string).
 */
BEGIN
{
	@a = count();
	@a = sum("x");
}
