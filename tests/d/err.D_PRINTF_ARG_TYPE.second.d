/*
 * Asserts D_PRINTF_ARG_TYPE: the second conversion is checked against the third argument.
 */
BEGIN
{
	printf("%d %d", 1, "two");
}
