/*
 * Asserts D_PRINTF_DYN_TYPE: a * width needs an integer.
 */
BEGIN
{
	printf("%*d", "w", 1);
}
