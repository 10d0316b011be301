/*
 * Asserts D_PRINTF_ARG_TYPE: %Y takes a 64-bit integer (a walltimestamp).
 */
BEGIN
{
	printf("%Y", 1);
}
