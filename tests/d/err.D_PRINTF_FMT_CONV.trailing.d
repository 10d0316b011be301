/*
 * Asserts D_PRINTF_FMT_CONV: a format may not end in a lone %.
 */
BEGIN
{
	printf("50%");
}
