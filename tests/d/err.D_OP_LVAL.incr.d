/*
 * Asserts D_OP_LVAL: ++ needs a modifiable lvalue.
 */
BEGIN
{
	++pid;
}
