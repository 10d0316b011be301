/*
 * Asserts D_PRINTF_ARG_TYPE: %hd takes a short.
 */
BEGIN
{
	printf("%hd", 1);
}
