/*
 * Asserts D_FUNC_UNDEF: calling an unknown function fails.
 */
BEGIN
{
	nosuchfunc(1);
}
