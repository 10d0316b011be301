/*
 * Asserts D_OP_WRITE: a built-in variable is an lvalue that D cannot write.
 */
BEGIN
{
	++pid;
}
