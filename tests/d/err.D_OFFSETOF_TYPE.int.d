/*
 * Asserts D_OFFSETOF_TYPE: offsetof needs a struct or union.
 */
BEGIN
{
	trace(offsetof(int, a));
}
