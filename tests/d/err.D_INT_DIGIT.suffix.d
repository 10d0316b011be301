/*
 * Asserts D_INT_DIGIT: an integer constant with a bad suffix is rejected.
 */
BEGIN
{
	trace(12abc);
}
