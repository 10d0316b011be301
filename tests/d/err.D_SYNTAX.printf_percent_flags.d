/*
 * Asserts D_SYNTAX: %% takes no flags or width ("%5%").
 */
BEGIN
{
	printf("%5%");
}
