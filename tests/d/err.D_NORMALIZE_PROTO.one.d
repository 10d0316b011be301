/*
 * Asserts D_NORMALIZE_PROTO: normalize() takes two arguments.
 */
BEGIN
{
	@a = count();
	normalize(@a);
}
