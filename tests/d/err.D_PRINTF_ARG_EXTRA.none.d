/*
 * Asserts D_PRINTF_ARG_EXTRA: a format without conversions takes no arguments.
 */
BEGIN
{
	printf("hello\n", 1);
}
