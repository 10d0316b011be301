/*
 * Asserts D_OP_ARRFUN: an integer cannot be indexed.
 */
BEGIN
{
	trace(pid[1]);
}
