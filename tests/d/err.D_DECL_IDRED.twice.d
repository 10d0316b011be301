/*
 * Asserts D_DECL_IDRED: a variable cannot be declared twice.
 */
int x;
int x;
BEGIN
{
	trace(1);
}
