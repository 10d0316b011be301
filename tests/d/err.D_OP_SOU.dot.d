/*
 * Asserts D_OP_SOU: the . operator needs a struct or union.
 */
BEGIN
{
	trace(pid.a);
}
