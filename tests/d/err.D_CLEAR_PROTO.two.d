/*
 * Asserts D_CLEAR_PROTO: clear() takes one argument.
 */
BEGIN
{
	@a = count();
	clear(@a, 1);
}
