/*
 * Asserts D_PRINTF_ARG_TYPE: %d needs an integer.
 */
BEGIN
{
	printf("%d\n", execname);
}
