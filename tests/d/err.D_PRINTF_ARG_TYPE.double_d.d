/*
 * Asserts D_PRINTF_ARG_TYPE: %d takes an integer, and a double is not one.
 */
double d;
BEGIN
{
	printf("%d", d);
}
