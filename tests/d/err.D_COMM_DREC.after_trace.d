/*
 * Asserts D_COMM_DREC: commit() may not follow a data-recording action.
 */
BEGIN
{
	trace(1);
	commit(1);
}
