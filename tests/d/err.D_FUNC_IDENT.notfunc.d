/*
 * Asserts D_FUNC_IDENT: a variable cannot be called.
 */
BEGIN
{
	x = 1;
	x(2);
}
