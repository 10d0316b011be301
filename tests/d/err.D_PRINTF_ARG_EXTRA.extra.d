/*
 * Asserts D_PRINTF_ARG_EXTRA: printf() rejects arguments the format does not use.
 */
BEGIN
{
	printf("%d\n", 1, 2);
}
