/*
 * Asserts D_PRINTF_ARG_EXTRA: star arguments count among the ones a format uses.
 */
BEGIN
{
	printf("%*d", 1, 2, 3);
}
