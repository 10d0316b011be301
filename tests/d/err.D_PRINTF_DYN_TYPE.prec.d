/*
 * Asserts D_PRINTF_DYN_TYPE: a .* precision must be an integer.
 */
BEGIN
{
	printf("%.*s", "a", "b");
}
