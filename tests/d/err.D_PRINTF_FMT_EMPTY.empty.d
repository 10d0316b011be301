/*
 * Asserts D_PRINTF_FMT_EMPTY: printf()'s format may not be empty.
 */
BEGIN
{
	printf("");
}
