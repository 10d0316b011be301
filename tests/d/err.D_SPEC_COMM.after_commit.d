/*
 * Asserts D_SPEC_COMM: speculate() may not follow commit().
 */
BEGIN
{
	commit(1);
	speculate(1);
}
