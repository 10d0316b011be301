/*
 * Asserts D_PRINTF_ARG_TYPE: a * width needs an integer.
 */
BEGIN
{
	printf("%*d", "w", 1);
}
