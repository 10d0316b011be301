/*
 * Asserts D_DREC_COMM: trace() may not follow commit().
 */
BEGIN
{
	commit(1);
	trace(1);
}
