/*
 * Asserts D_NORMALIZE_PROTO: denormalize() takes one argument.
 */
BEGIN
{
	@a = count();
	denormalize(@a, 1);
}
