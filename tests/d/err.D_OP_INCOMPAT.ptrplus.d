/*
 * Asserts D_OP_INCOMPAT: pointer plus string is meaningless.
 */
int *p;
BEGIN
{
	trace(p + "a");
}
