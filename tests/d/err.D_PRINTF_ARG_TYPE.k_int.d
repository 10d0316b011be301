/*
 * Asserts D_PRINTF_ARG_TYPE: %k needs a stack.
 */
BEGIN
{
	printf("%k", 1);
}
