/*
 * Asserts D_OP_INCOMPAT: a declared int cannot hold a string.
 */
int x;
BEGIN
{
	x = execname;
}
