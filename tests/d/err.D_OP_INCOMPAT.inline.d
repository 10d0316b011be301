/*
 * Asserts D_OP_INCOMPAT: an inline's body must match its type.
 */
inline int x = "str";
BEGIN
{
	trace(x);
}
