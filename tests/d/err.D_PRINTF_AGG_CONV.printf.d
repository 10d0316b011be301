/*
 * Asserts D_PRINTF_AGG_CONV: %@ is for printa() only.
 */
BEGIN
{
	printf("%@d", 1);
}
