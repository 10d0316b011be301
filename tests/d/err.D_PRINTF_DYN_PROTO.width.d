/*
 * Asserts D_PRINTF_DYN_PROTO: a * width needs an argument of its own.
 */
BEGIN
{
	printf("%*d");
}
