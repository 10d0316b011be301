/*
 * Asserts D_COMM_COMM: commit() may not follow commit().
 */
BEGIN
{
	commit(1);
	commit(2);
}
