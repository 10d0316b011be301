/*
 * Asserts D_DECL_TYPENAME: a declaration needs a type specifier.
 */
const x;
BEGIN
{
	trace(1);
}
