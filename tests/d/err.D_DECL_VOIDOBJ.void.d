/*
 * Asserts D_DECL_VOIDOBJ: a variable cannot be void.
 */
void v;
BEGIN
{
	trace(1);
}
