/*
 * Asserts D_PRINTF_ARG_TYPE: %lu takes an unsigned long, not a signed one.
 */
BEGIN
{
	printf("%lu", 1LL);
}
