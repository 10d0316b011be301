/*
 * Asserts D_PRINTF_FMT_CONV: an unknown conversion is rejected.
 */
BEGIN
{
	printf("%v", 1);
}
