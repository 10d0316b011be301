/*
 * Asserts D_DECL_IDRED: a built-in variable cannot be redeclared.
 */
int timestamp;
BEGIN
{
	trace(1);
}
