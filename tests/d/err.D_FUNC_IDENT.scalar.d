/*
 * Asserts D_FUNC_IDENT: a function name is not a value.
 */
BEGIN
{
	x = strlen;
}
