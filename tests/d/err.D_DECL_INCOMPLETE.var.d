/*
 * Asserts D_DECL_INCOMPLETE: a variable cannot have an incomplete type.
 */
struct nosuch v;
BEGIN
{
	trace(1);
}
