/*
 * Asserts D_OP_LVAL: -- needs a modifiable lvalue.
 */
BEGIN
{
	(1 + 2)--;
}
