/*
 * Asserts D_PRINTF_ARG_TYPE: %s needs a string.
 */
BEGIN
{
	printf("%s\n", pid);
}
