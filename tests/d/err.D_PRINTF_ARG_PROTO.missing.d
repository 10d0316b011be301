/*
 * Asserts D_PRINTF_ARG_PROTO: each conversion needs an argument.
 */
BEGIN
{
	printf("%d %s\n", 1);
}
