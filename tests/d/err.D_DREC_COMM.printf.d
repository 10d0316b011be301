/*
 * Asserts D_DREC_COMM: printf() may not follow commit().
 */
BEGIN
{
	commit(1);
	printf("%d", 1);
}
