/*
 * Asserts D_DECL_IDRED: an inline cannot reuse a variable name.
 */
int x;
inline int x = 3;
BEGIN
{
	trace(1);
}
