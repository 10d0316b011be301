/*
 * Asserts D_COMM_SPEC: commit() may not follow speculate().
 */
BEGIN
{
	speculate(1);
	commit(1);
}
