/*
 * Asserts D_AGG_FUNC: a subroutine is not an aggregating function.
 */
BEGIN
{
	@a = strlen("x");
}
