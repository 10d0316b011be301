/*
 * Asserts D_PRINTF_ARG_TYPE: %c needs char, short or int.
 */
BEGIN
{
	printf("%c", timestamp);
}
