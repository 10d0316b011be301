/*
 * Asserts D_FUNC_IDKIND: a variable cannot be called (the name is of another
 * kind).
 */
BEGIN
{
	x = 1;
	x(2);
}
