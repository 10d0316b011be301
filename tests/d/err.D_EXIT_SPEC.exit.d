/*
 * Asserts D_EXIT_SPEC: exit() may not follow speculate().
 */
BEGIN
{
	speculate(1);
	exit(0);
}
