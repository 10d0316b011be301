/*
 * Asserts D_PRINTF_ARG_FMT: printf()'s format must be a string constant.
 */
BEGIN
{
	printf(1);
}
