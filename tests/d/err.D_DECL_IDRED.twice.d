/*
 * Asserts D_DECL_IDRED: a variable cannot be declared again with another
 * type (the very same declaration again is accepted, as in DTrace).
 */
int x;
char x;
BEGIN
{
	trace(1);
}
